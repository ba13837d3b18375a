# The loop variable goes to a traced argument and the static one stays fixed: JAX traces `x` and compiles once.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1,))
def tile(x, reps):
    return jnp.tile(x, reps)


def tiles(steps):
    out = []
    for n in range(steps):
        out.append(tile(jnp.asarray(n), 4))
    return out
