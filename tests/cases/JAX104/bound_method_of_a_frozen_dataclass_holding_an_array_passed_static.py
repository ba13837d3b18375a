# A bound method of a frozen dataclass that holds an array, passed as a static argument: JAX hashes the method (by
# its object's identity), never the dataclass, so the array in it raises nothing. jax 0.10.2 and 0.12.0.1: 6.0.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Weights:
    w: jax.Array  # strict: JAX104

    def apply(self, x):
        return x * self.w.sum()


@partial(jax.jit, static_argnums=1)
def step(x, act):
    return act(x)


WEIGHTS = Weights(jnp.ones(3))
print(float(step(2.0, WEIGHTS.apply)))  # strict: JAX102
