# A test runs once, but a loop in it runs its body on every turn: a bound method jitted there compiles every turn.
# jax 0.10.2: 4 turns trace and compile `Buffer.insert` 4 times.
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Buffer(NamedTuple):  # a pytree
    data: jax.Array

    def insert(self, x):
        return Buffer(self.data + x)


def test_insert_many():
    buffer = Buffer(jnp.zeros(3))
    for _ in range(4):
        buffer = jax.jit(buffer.insert)(jnp.ones(3))  # expect: JAX401
    assert float(buffer.data[0]) == 4.0
