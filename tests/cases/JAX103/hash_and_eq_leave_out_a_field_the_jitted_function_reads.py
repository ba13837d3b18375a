# `__hash__` and `__eq__` leave out `b`, which the jitted function reads: Config(1, 3) finds Config(1, 2)'s stale result.
# The fixture fail_missing_field: Config(1, 2) then Config(1, 3) returns the stale result.
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

    def __hash__(self):  # expect: JAX103
        return hash(self.a)

    def __eq__(self, other):  # expect: JAX103
        return type(other) is type(self) and other.a == self.a


@functools.partial(jax.jit, static_argnums=1)
def f(x, cfg: Config):
    return x * (cfg.a + cfg.b)


f(1.0, Config(1, 2))
