# jnp.int32(3), jnp.float32(2.0) and jnp.asarray(3) are zero-dimensional jax Arrays, unhashable at a static position.
# jax 0.10.2 and 0.12.0.1: each of the three calls raises "ValueError: Non-hashable static arguments are not supported".
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def h(x, n):
    return x * n


h(1.0, jnp.int32(3))  # expect: JAX106
h(1.0, jnp.float32(2.0))  # expect: JAX106
h(1.0, jnp.asarray(3))  # expect: JAX106
