# A jitted lambda over `self` that reads only attributes set once in __init__ compiles in values that stay right.
# jax 0.10.2: `self.bias` is set once, in __init__: the compiled-in value stays right.
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.bias = 1.0
        self._f = None

    def build(self, other):
        self._f = jax.jit(lambda x: x + self.bias)

    def set_scale(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._f(x)
