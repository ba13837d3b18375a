# A jitted lambda over `self` kept on `self` compiles in `self.scale`: stale after the setter runs.
# jax 0.10.2: the lambda compiles in scale=2.0; after set_scale(3.0) it still multiplies by 2.0.
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.bias = 1.0
        self._f = None

    def build(self, other):
        self._f = jax.jit(lambda x: x * self.scale)  # expect: JAX203

    def set_scale(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._f(x)
