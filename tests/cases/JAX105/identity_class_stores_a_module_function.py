# A plain Pipeline, static `self`, stores a module-level function: the same object for every
# Pipeline, nothing made per instance (jax 0.10.2 and 0.12.0.1: 5.0 on each call, 1 trace).
from functools import partial

import jax
import jax.numpy as jnp


def double(x):
    return x * 2.0


class Pipeline:  # expect: JAX101  # strict: JAX102  (latent: public state the trace reads)
    def __init__(self):
        self.run_part = double

    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return self.run_part(x) + 1.0


p = Pipeline()
print([float(p(jnp.float32(2.0))) for _ in range(3)])
