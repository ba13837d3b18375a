# A `@jax.jit` nested function returned to the caller keeps its cache, and the `self.scale` compiled in with it.
# jax 0.10.2: the returned jitted `g` keeps its cache, and `self.scale` with it.
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.bias = 1.0
        self._f = None

    def build(self, other):
        @jax.jit  # expect: JAX203
        def g(x):
            return x * self.scale

        return g

    def set_scale(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._f(x)
