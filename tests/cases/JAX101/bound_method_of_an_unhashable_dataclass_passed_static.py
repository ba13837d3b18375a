# A bound method of a plain `@dataclass` (unhashable: `__hash__` is None) passed as a static argument: the method
# hashes by its object's identity, so JAX raises nothing, and the compiled function keeps the old state.
# jax 0.10.2 and 0.12.0.1: 4.0, then 4.0 again after `scaler.factor = 3.0` (6.0 is right).
import dataclasses
from functools import partial

import jax


@dataclasses.dataclass
class Scaler:  # expect: JAX101
    factor: float

    def apply(self, x):
        return x * self.factor


@partial(jax.jit, static_argnums=1)
def step(x, act):
    return act(x)


scaler = Scaler(2.0)
first = step(2.0, scaler.apply)  # strict: JAX102
scaler.factor = 3.0
print(float(first), float(step(2.0, scaler.apply)))  # strict: JAX102
