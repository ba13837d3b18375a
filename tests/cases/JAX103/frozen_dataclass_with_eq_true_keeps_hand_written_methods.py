# With eq=True @dataclass keeps a `__eq__` and `__hash__` written in the body, so their left-out field counts.
# With eq=True (the default) a `__eq__` and `__hash__` written in the body are
# kept by @dataclass, so they are the ones JAX uses.
from dataclasses import dataclass

import jax

@dataclass(frozen=True)
class Config:
    a: int
    b: int

    def __hash__(self):  # expect: JAX103
        return hash(self.a)

    def __eq__(self, other):  # expect: JAX103
        return isinstance(other, Config) and other.a == self.a

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.a + cfg.b

f(Config(1, 2), 1.0)
