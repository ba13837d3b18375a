# A frozen dataclass with its own `__eq__` still gets a field hash from @dataclass: not identity-hashed.
# jax 0.10.2: hash(Cfg("a", 2)) works (dataclass adds a field hash) and two equal calls compile once.
from dataclasses import dataclass
from functools import partial
import jax

@dataclass(frozen=True)
class Cfg:
    name: str
    n: int

    def __eq__(self, other):
        return isinstance(other, Cfg) and other.name.lower() == self.name.lower() and other.n == self.n

@partial(jax.jit, static_argnums=1)
def f(x, cfg):
    return x * cfg.n

f(1.0, Cfg("a", 2))
