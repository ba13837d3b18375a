# With no subclass there is no other type to confuse a value with, so `__eq__` may leave the type out.
# A top-level static argument is keyed on its type by JAX anyway.
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

    def __hash__(self):
        return hash((self.a, self.b))

    def __eq__(self, other):
        return isinstance(other, Config) and (other.a, other.b) == (self.a, self.b)


@functools.partial(jax.jit, static_argnums=1)
def f(x, cfg: Config):
    return x * (cfg.a + cfg.b)


f(1.0, Config(1, 2))
