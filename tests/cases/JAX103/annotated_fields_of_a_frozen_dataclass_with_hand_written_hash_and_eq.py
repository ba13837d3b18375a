# With eq=False the dataclass generates neither method: the hand-written ones, leaving out `b`, are what JAX uses.
# eq=False: the dataclass generates neither method; the hand-written ones are kept.
import dataclasses

import jax

@dataclasses.dataclass(frozen=True, eq=False)
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
