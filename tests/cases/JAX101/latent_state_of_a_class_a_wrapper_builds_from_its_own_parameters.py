# A wrapper's `__init__` builds the step from its own parameters and keeps none of them: users configure the step alone (latent).
# jax 0.10.2: after `vec.step.unroll_length = 8` the next `vec.step.run(x)` gives the result for 5 (identity hash: stale).
from functools import partial

import jax
import jax.numpy as jnp


class UnrollStep:  # expect: JAX101  # strict: JAX102
    """Unrolls a task for a fixed number of steps."""

    def __init__(self, scale, unroll_length=5):
        self.scale = scale
        self.unroll_length = unroll_length

    @partial(jax.jit, static_argnums=(0,))
    def run(self, x):
        return jnp.where(x < self.unroll_length, x * self.scale, x)


class VectorizedUnrollStep:
    def __init__(self, scale, num_tasks, unroll_length=5):
        self.step = UnrollStep(scale, unroll_length)
        self.num_tasks = num_tasks
