# A sampler's `data_generation` is jitted with `self` static; the training loop builds a new, equal sampler for every stage, wherever the method is then called.
# jax 0.10.2 and 0.12.0.1: each stage traces and compiles `data_generation` again.
import functools

import jax
import jax.numpy as jnp


class UniformSampler:  # expect: JAX102; strict: JAX101
    def __init__(self, batch_size):
        self._batch_size = batch_size

    @functools.partial(jax.jit, static_argnums=(0,))
    def data_generation(self, key):
        return jax.random.uniform(key, (self._batch_size,))

    def __iter__(self):
        key = jax.random.PRNGKey(0)
        while True:
            key, subkey = jax.random.split(key)
            yield self.data_generation(subkey)


def train_stage(sampler, steps):
    batches = iter(sampler)
    return [next(batches) for _ in range(steps)]


def train_curriculum(stages):
    for steps in stages:
        sampler = UniformSampler(128)
        train_stage(sampler, steps)
    return jnp.zeros(())
