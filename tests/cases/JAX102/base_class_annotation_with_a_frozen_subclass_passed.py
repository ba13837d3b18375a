# A plain base class annotation says nothing about the values passed: the frozen subclass given is static-safe.
# jax 0.10.2: it runs, and a second call with an equal value hits the cache (`_cache_size()` stays 1).
from dataclasses import dataclass
from functools import partial
import jax

class Base:
    pass

@dataclass(frozen=True)
class Sub(Base):
    n: int = 2

@partial(jax.jit, static_argnames="b")
def f(x, b: Base):
    return x * b.n

f(1.0, b=Sub())
