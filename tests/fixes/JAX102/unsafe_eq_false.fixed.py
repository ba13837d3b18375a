"""A frozen dataclass with eq=False hashes by identity: every fresh, equal Cfg compiles again."""
import dataclasses
from functools import partial

import jax


@dataclasses.dataclass(
    frozen=True,  # identity
)
class Cfg:
    n: int


@partial(jax.jit, static_argnums=1)
def f(x, cfg):
    return x + cfg.n


def run(x):
    for _ in range(5):
        x = f(x, Cfg(3))
    return x
