# A dataclass child with eq=False that adds no field, only a method: the inherited __eq__/__hash__ are complete.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: Child(1.0) and Child(2.0) differ in `a`, which the
# inherited methods compare: 3.0 then 4.0, right; two equal Child(1.0) share a trace (2 traces for 3 calls).
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp

TRACES = 0


@dataclass(frozen=True)
class Base:
    a: float
    b: float = 2.0


@dataclass(frozen=True, eq=False)
class Child(Base):
    def offset(self):
        return self.b


@partial(jax.jit, static_argnums=1)
def shift(x, cfg: Child):
    global TRACES
    TRACES += 1
    return x * cfg.a + cfg.offset()


x = jnp.float32(1.0)
print([float(shift(x, Child(a))) for a in (1.0, 2.0, 1.0)], "traces", TRACES)
