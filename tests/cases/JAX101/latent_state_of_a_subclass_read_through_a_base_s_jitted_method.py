# A base class jits `step` with `self` static and calls `self.step_env`; a subclass's `step_env` reads its public state.
# jax 0.10.2 and 0.12.0.1: after `env.size = 8`, `env.step(x)` still clips to the old size 4 (identity hash: stale).
from functools import partial

import jax
import jax.numpy as jnp


class EnvironmentBase:  # strict: JAX102
    @partial(jax.jit, static_argnums=0)
    def step(self, x):
        return self.step_env(x)

    def step_env(self, x):
        raise NotImplementedError


class GridEnv(EnvironmentBase):  # expect: JAX101  # strict: JAX102
    def __init__(self, size):
        self.size = size

    def step_env(self, x):
        return jnp.clip(x + 1, 0, self.size - 1)
