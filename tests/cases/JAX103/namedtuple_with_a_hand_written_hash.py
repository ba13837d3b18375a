# A NamedTuple compares as a tuple of all its fields, whatever its hand-written `__hash__`.
from typing import NamedTuple

import jax

class Config(NamedTuple):
    a: int
    b: int

    def __hash__(self):
        return hash(self.a)

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.a + cfg.b

f(Config(1, 2), 1.0)
