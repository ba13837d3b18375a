# np.int32(3) and np.float32(2.0) are numpy scalars, not arrays: they hash like the Python number, so jit caches on them.
# jax 0.10.2 and 0.12.0.1: both calls run (3.0 and 2.0); only jnp scalars and arrays raise.
from functools import partial

import jax
import numpy as np


@partial(jax.jit, static_argnums=1)
def h(x, n):
    return x * n


h(1.0, np.int32(3))
h(1.0, np.float32(2.0))
h(1.0, np.float64(0.5).item())
