# `nnx.static` makes a value pytree metadata; an array there makes flax raise.
# flax 0.12.8: `nnx.static` makes `m` pytree metadata; given an array, `Model(...)` raises
# `ValueError: Found data in value of type '<class 'numpy.ndarray'>' annotated with nnx.static(...)`.
import jax.numpy as jnp
import numpy as np
from flax import nnx


class Model(nnx.Module):
    def __init__(self, w):
        self.w = nnx.Param(w)
        self.m = nnx.static(np.ones(3))  # expect: JAX302

    def __call__(self, x):
        return jnp.sum(self.w * self.m * x)
