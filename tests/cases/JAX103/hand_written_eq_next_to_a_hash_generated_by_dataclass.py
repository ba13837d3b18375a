# A hand-written `__eq__` kept beside a generated field hash is alone at fault, and enough for a stale result.
# frozen + eq: @dataclass keeps the hand-written `__eq__` and adds a `__hash__`
# over every field. The `__eq__` alone is at fault, and it is enough for a
# stale result under jax 0.10.2 (Config(1, 2) then Config(1, 3): 3.0, 3.0).
import dataclasses

import jax

@dataclasses.dataclass(frozen=True)
class Config:
    a: int
    b: int

    def __eq__(self, other):  # expect: JAX103
        return isinstance(other, Config) and other.a == self.a

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.a + cfg.b

f(Config(1, 2), 1.0)
