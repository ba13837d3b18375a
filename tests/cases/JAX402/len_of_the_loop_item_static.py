# `len(batch)` is read off the shape of the batch passed with it: each new length is a new shape, which
# compiles again whether the length is static or not, so the static argument adds no compilation.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1,))
def pad_to_multiple(batch, length):
    return jnp.pad(batch, (0, (-length) % 8))


def pad_all(batches):
    out = []
    for batch in batches:
        out.append(pad_to_multiple(jnp.asarray(batch), len(batch)))
    return out
