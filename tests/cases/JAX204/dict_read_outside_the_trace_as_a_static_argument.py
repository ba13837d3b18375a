# The caller reads a module-level dict and passes the value as a static argument: a changed value is a new cache key.
# jax 0.10.2 and 0.12.0.1: scaled(2.0, scale=1.0) gives 2.0; after SCALES["a"] = 4.0 the call hashes 4.0, traces again and gives 8.0.
from functools import partial

import jax
import jax.numpy as jnp

SCALES = {"a": 1.0}


@partial(jax.jit, static_argnames="scale")
def scaled(x, scale):
    return x * scale


def run(x):
    return scaled(x, scale=SCALES["a"])


print(float(run(jnp.float32(2.0))))
SCALES["a"] = 4.0
print(float(run(jnp.float32(2.0))))
