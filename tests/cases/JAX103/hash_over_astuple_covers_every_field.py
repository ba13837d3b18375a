# `dataclasses.astuple(self)` covers every field, so hash and eq over it leave nothing out.
import dataclasses

import jax

@dataclasses.dataclass(frozen=True, eq=False)
class Config:
    a: int
    b: int

    def __hash__(self):
        return hash(dataclasses.astuple(self))

    def __eq__(self, other):
        return type(other) is type(self) and dataclasses.astuple(other) == dataclasses.astuple(self)

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.a + cfg.b

f(Config(1, 2), 1.0)
