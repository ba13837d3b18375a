# `__hash__` and `__eq__` through a `_key()` helper that leaves out `b` are as incomplete as written inline.
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

    def _key(self):
        return (self.a,)

    def __hash__(self):  # expect: JAX103
        return hash(self._key())

    def __eq__(self, other):  # expect: JAX103
        return type(other) is type(self) and other._key() == self._key()


@functools.partial(jax.jit, static_argnums=1)
def f(x, cfg: Config):
    return x * (cfg.a + cfg.b)


f(1.0, Config(1, 2))
