# A frozen dataclass given the array a project function returns: its generated hash hashes it, and jax.jit raises.
# jax 0.10.2 and 0.12.0.1: ValueError: Non-hashable static arguments are not supported.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


def make_noise(key):
    noise = jax.random.normal(key, (3,))
    return noise


@dataclasses.dataclass(frozen=True)
class Prior:
    scale: float
    noise: object  # expect: JAX104


@partial(jax.jit, static_argnums=1)
def apply(x, prior):
    return jnp.sum(x + prior.scale * prior.noise)


print(apply(jnp.zeros(3), Prior(2.0, make_noise(jax.random.key(0)))))
