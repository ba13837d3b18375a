# A jnp scalar passed where the argument is traced, not static, is an ordinary array input.
# jax 0.10.2 and 0.12.0.1: `x` and `s` are traced; nothing is hashed, and h returns 6.0.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n")
def h(x, s, n=2):
    return x * s * n


h(jnp.float32(1.0), jnp.int32(3), n=2)
h(jnp.float32(1.0), s=jnp.float32(3.0))
