# nnx.jit with `self` static (static_argnums=0) on a frozen dataclass: `self` is hashed, not traced.
# jax 0.10.2 (flax 0.12.8) and 0.12.0.1 (flax 0.12.12): Cfg(2.0).scale(3.0) gives 6.0 and Cfg(3.0).scale(3.0) 9.0.
import dataclasses
from functools import partial

import jax.numpy as jnp
from flax import nnx


@dataclasses.dataclass(frozen=True)
class Cfg:
    factor: float

    @partial(nnx.jit, static_argnums=0)
    def scale(self, y):
        return self.factor * y


Cfg(2.0).scale(jnp.float32(3.0))
Cfg(3.0).scale(jnp.float32(3.0))
