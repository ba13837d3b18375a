"""Under jax.checkpoint the call runs: a function could change the list in place, so the fix is unsafe."""
from functools import partial

import jax


@partial(jax.checkpoint, static_argnums=(1,))
def f(x, dims):
    return x * sum(dims)


def run(x):
    for _ in range(3):
        x = f(x, (1, 2))
    return x
