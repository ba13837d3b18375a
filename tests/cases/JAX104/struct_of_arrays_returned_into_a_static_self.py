# A static `self` holds the NamedTuple of arrays a helper returns: the arrays are baked into the trace (strict).
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Sample(NamedTuple):
    mean: object
    std: object


class Sampler:
    def sample(self, key):
        return Sample(jax.random.normal(key, (3,)), jnp.ones(3))


class Noisy:  # expect: JAX101  # strict: JAX102  (latent: public state the trace reads)
    def __init__(self, helper, key):
        self.helper = helper
        self.noise = self.helper.sample(key)  # strict: JAX104

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return jnp.sum(x + self.noise.mean)


print(Noisy(Sampler(), jax.random.key(0)).apply(jnp.zeros(3)))
