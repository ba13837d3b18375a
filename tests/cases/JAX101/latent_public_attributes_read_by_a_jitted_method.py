# A library's environment keeps `self` static and reads public attributes its users may set: latent, at the class.
# jax 0.10.2 and 0.12.0.1: after `env.size = 8` the next `env.step(x)` gives the result for size 4 (identity hash: stale).
from functools import partial

import jax
import jax.numpy as jnp


class GridEnv:  # expect: JAX101  # strict: JAX102
    def __init__(self, size, rewards):
        self.size = size
        self.rewards = rewards
        self._steps = 0

    @partial(jax.jit, static_argnums=0)
    def step(self, x):
        return jnp.clip(x + 1, 0, self.size - 1) * self.rewards["goal"]
