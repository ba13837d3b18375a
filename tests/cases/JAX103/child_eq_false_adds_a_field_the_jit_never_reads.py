# A `@dataclass(frozen=True, eq=False)` child inherits its base's generated `__eq__`,
# which leaves out `label`; the jitted function never reads `label`, so two values that
# differ only there may share a compiled function and the result is still right
# (jax 0.10.2 and 0.12.0.1: 3.0, 3.0).
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Base:
    a: float


@dataclass(frozen=True, eq=False)
class Tagged(Base):
    label: str = ""


@partial(jax.jit, static_argnums=1)
def scale(x, cfg: Tagged):
    return x * cfg.a + 2.0


print(float(scale(jnp.float32(1.0), Tagged(1.0, "first"))), float(scale(jnp.float32(1.0), Tagged(1.0, "second"))))
