# The loop runs over what a configuration holds (`params.impurity_names`), the same few names on every call:
# each name compiles once and is found in the cache ever after, on purpose (a static name picks Python code).
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="symbol")
def cooling_rate(t, symbol):
    return t * (2.0 if symbol == "W" else 1.0)


def radiation(t, params):
    names = params.impurity_names
    total = jnp.zeros_like(t)
    for symbol in names:
        total = total + cooling_rate(t, symbol=symbol)
    for symbol in params.impurity_names:
        total = total + cooling_rate(t, symbol)
    return total
