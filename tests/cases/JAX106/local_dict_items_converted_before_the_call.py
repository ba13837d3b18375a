# A local dict whose item is converted to a tuple before the call, and a parameter that may hold the caller's dict: the item passed static is not known to be a list.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def f(x, shape):
    return jnp.reshape(x, shape)


def run(x, cfg=None):
    if cfg is None:
        cfg = {"shape": [3, 1]}
        cfg["shape"] = tuple(cfg["shape"])
    return f(x, cfg["shape"])


def run2(x):
    cfg = {"shape": [3, 1]}
    cfg["shape"] = tuple(cfg["shape"])
    return f(x, cfg["shape"])


run(jnp.ones(3), {"shape": (3, 1)})
run2(jnp.ones(3))
