# One call of a checkpointed function with a static list, made once per run: it traces once either way.
from functools import partial

import jax


@partial(jax.checkpoint, static_argnums=(1,))
def scale(x, dims):
    return x * len(dims)


def main(x):
    return scale(x, [1, 2])  # strict: JAX106
