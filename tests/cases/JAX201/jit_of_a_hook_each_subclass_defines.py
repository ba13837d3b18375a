# The base class jits `self._eval`, a hook it leaves to its subclasses; `Convolve._eval` reads the public kernel `h`, which users of the exported `Convolve` may set.
# jax 0.10.2 and 0.12.0.1: after `op.h = new_kernel` the kept jit returns results for the old kernel.
import jax
import jax.numpy as jnp


class LinearOperator:
    def __init__(self, shape, jit=True):
        self.shape = shape
        if jit:
            self.jit()

    def jit(self):
        self._eval = jax.jit(self._eval)  # expect: JAX201

    def __call__(self, x):
        return self._eval(x)


class Convolve(LinearOperator):
    def __init__(self, h, shape):
        self.h = h
        super().__init__(shape)

    def _eval(self, x):
        return jnp.convolve(x, self.h)
