# A dataclass child with eq=False adds a `label` the inherited methods leave out, but jit never reads it.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: Child(1.0, "run-a") and Child(1.0, "run-b") share
# one trace and both rightly give 3.0, since the compiled function depends on `a` only.
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp

TRACES = 0


@dataclass(frozen=True)
class Base:
    a: float


@dataclass(frozen=True, eq=False)
class Child(Base):
    label: str = ""


@partial(jax.jit, static_argnums=1)
def shift(x, cfg: Child):
    global TRACES
    TRACES += 1
    return x * cfg.a + 2.0


x = jnp.float32(1.0)
print(float(shift(x, Child(1.0, "run-a"))), float(shift(x, Child(1.0, "run-b"))), "traces", TRACES)
