# A static `self` holds the array its helper object's method returns: baked into the trace (strict, identity hash).
# jax 0.10.2 and 0.12.0.1: after `model.noise = model.noise + 1.0` the result is unchanged, one trace (stale).
from functools import partial

import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, scale):
        self.scale = scale

    def sample(self, key):
        return self.scale * jax.random.normal(key, (3,))


class Noisy:  # expect: JAX101; strict: JAX102
    def __init__(self, sampler, key):
        self.sampler = sampler
        self.noise = self.sampler.sample(key)  # strict: JAX104

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return jnp.sum(x + self.noise)


model = Noisy(Sampler(1.0), jax.random.key(0))
first = model.apply(jnp.zeros(3))
model.noise = model.noise + 1.0
print(first, model.apply(jnp.zeros(3)))
