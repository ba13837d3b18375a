# A gymnax `Environment` is a plain class: a subclass jitting `step` with `self` static and reading its public `auto_reset` is latent state users change.
# jax 0.10.2 and 0.12.0.1: after `env.auto_reset = False` the cached step keeps resetting.
import functools

import jax
from gymnax.environments.environment import Environment


class KinetixEnv(Environment):  # expect: JAX101; strict: JAX102
    def __init__(self, auto_reset=True):
        self.auto_reset = auto_reset

    @functools.partial(jax.jit, static_argnums=(0,))
    def step(self, key, state, action):
        if self.auto_reset:
            return state * 0
        return state + action
