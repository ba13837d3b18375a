# `cfg.size` is read from each item of the loop: one compilation per configuration with a new size.
# jax 0.10.2 and 0.12.0.1: 12 configs with 12 sizes leave 12 compiled programs in `init_layer`'s cache.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="size")
def init_layer(key, size):
    return jax.random.normal(key, (size, size))


class LayerConfig:
    def __init__(self, size):
        self.size = size


def init_all(key, configs):
    params = []
    for cfg in configs:
        key, sub = jax.random.split(key)
        params.append(init_layer(sub, size=cfg.size))  # expect: JAX402
    return params


def total(params):
    return sum(jnp.sum(p) for p in params)
