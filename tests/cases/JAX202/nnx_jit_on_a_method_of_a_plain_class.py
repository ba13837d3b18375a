# nnx.jit on a method of a plain class traces `self`, which is neither an nnx.Module nor a pytree.
# jax 0.10.2 (flax 0.12.8) and 0.12.0.1 (flax 0.12.12): the call raises "TypeError: Error interpreting argument to JitFn(...) as an abstract array".
import jax.numpy as jnp
from flax import nnx


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @nnx.jit  # expect: JAX202
    def scale(self, y):
        return self.factor * y


Scaler(2.0).scale(jnp.float32(3.0))
