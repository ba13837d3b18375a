# A gymnax `Environment` (and a torch `Dataset`) is a plain class: a subclass jitting `step` with `self` static and reading its public `auto_reset` is latent state users change.
# jax 0.10.2 and 0.12.0.1: after `env.auto_reset = False` the cached step keeps resetting.
import functools

import jax
from gymnax.environments.environment import Environment
from torch.utils.data import Dataset


class KinetixEnv(Environment):  # expect: JAX101; strict: JAX102
    def __init__(self, auto_reset=True):
        self.auto_reset = auto_reset

    @functools.partial(jax.jit, static_argnums=(0,))
    def step(self, key, state, action):
        if self.auto_reset:
            return state * 0
        return state + action


class Sampler(Dataset):  # expect: JAX101; strict: JAX102
    # torch's `Dataset` is a plain class too (`__getitem__` and `__add__` only).
    def __init__(self, batch_size):
        self.batch_size = batch_size

    @functools.partial(jax.jit, static_argnums=(0,))
    def data_generation(self, key):
        return jax.random.uniform(key, (self.batch_size,))
