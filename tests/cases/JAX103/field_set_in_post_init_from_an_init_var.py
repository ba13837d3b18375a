# A field set in __post_init__ from an InitVar carries the constructor's argument: leaving it out of `__eq__` is stale.
# Stale under jax 0.10.2: Config(1, 2) then Config(1, 3) gives 3.0, 3.0.
import dataclasses

import jax

@dataclasses.dataclass(frozen=True, eq=False)
class Config:
    a: int
    b_init: dataclasses.InitVar[int]

    def __post_init__(self, b_init):
        object.__setattr__(self, "b", b_init)

    def __hash__(self):  # expect: JAX103
        return hash(self.a)

    def __eq__(self, other):  # expect: JAX103
        return isinstance(other, Config) and other.a == self.a

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.a + cfg.b

f(Config(1, 2), 1.0)
