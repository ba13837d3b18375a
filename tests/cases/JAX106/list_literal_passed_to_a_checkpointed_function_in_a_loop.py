# jax.checkpoint keys its cache on a static list without hashing it: each turn's fresh list traces again.
from functools import partial

import jax


@partial(jax.checkpoint, static_argnums=(1,))
def scale(x, dims):
    return x * len(dims)


def run(x):
    for _ in range(10):
        x = scale(x, [1, 2])  # expect: JAX106
    return x
