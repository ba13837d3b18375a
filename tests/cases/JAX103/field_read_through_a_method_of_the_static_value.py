# The jitted function reads the left-out `b` through `cfg.total()`: a read all the same.
import functools

import jax


class Config:
    def __init__(self, a, b):
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    def __setattr__(self, name, value):
        raise AttributeError("Config is immutable")

    def __delattr__(self, name):
        raise AttributeError("Config is immutable")

    def total(self):
        return self.a + self.b

    def __hash__(self):  # expect: JAX103
        return hash(self.a)

    def __eq__(self, other):  # expect: JAX103
        return type(other) is type(self) and other.a == self.a


@functools.partial(jax.jit, static_argnums=1)
def f(x, cfg: Config):
    return x * (cfg.total())


f(1.0, Config(1, 2))
