# A jitted lambda reading `self.scale` through a helper method compiles it in just the same: stale after the setter.
# jax 0.10.2: `self.helper(x)` is traced with it, and `self.scale` compiled in: stale.
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.bias = 1.0
        self._f = None

    def helper(self, x):
        return x * self.scale

    def build(self, other):
        self._f = jax.jit(lambda x: self.helper(x) + self.bias)  # expect: JAX203

    def set_scale(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._f(x)
