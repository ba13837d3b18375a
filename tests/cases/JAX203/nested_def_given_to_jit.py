# A nested function closing over `self`, jitted and kept, compiles in `self.scale`: stale after the setter runs.
# jax 0.10.2: the nested `f` closes over `self`; jit traces only `x`: stale after set_scale.
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.bias = 1.0
        self._f = None

    def build(self, other):
        def f(x):
            return x * self.scale

        self._f = jax.jit(f)  # expect: JAX203

    def set_scale(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._f(x)
