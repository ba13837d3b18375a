# nnx.jit on a method of a subclass of an nnx.Module: nnx.jit splits `self` into graph and state.
# jax 0.10.2 (flax 0.12.8) and 0.12.0.1 (flax 0.12.12): Child(2.0).scale(3.0) gives 6.0.
import jax.numpy as jnp
from flax import nnx


class Base(nnx.Module):
    def __init__(self, f):
        self.f = nnx.Param(jnp.float32(f))


class Child(Base):
    @nnx.jit
    def scale(self, y):
        return self.f[...] * y


Child(2.0).scale(jnp.float32(3.0))
