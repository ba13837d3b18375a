# JAX203 covers closures over `self`: a module-level lambda over an object is left alone (JAX compiles it in just the same).
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.bias = 1.0
        self._f = None

    def build(self, other):
        pass

    def set_scale(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._f(x)


m = Model(2.0)
f = jax.jit(lambda x: x * m.scale)
f(1.0)
m.set_scale(3.0)
