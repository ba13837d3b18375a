# `@dataclass(**FROZEN)` options that are not literal are not guessed: the class is not judged.
# jax 0.10.2: with FROZEN = dict(frozen=True) two Opts() calls compile once and `opts.n = 3` raises FrozenInstanceError.
from dataclasses import dataclass
from functools import partial
import jax

FROZEN = dict(frozen=True)

@dataclass(**FROZEN)
class Opts:
    n: int = 2

@partial(jax.jit, static_argnums=1)
def f(x, opts):
    return x * opts.n

f(1.0, Opts())
