"""A dataclass child with eq=False inherits its parent's hash, which leaves out the child's field."""
from dataclasses import dataclass

import jax


@dataclass(frozen=True)
class Base:
    a: float


@dataclass(frozen=True)
class Child(Base):
    b: float


def f(x, cfg):
    return x * cfg.a + cfg.b


g = jax.jit(f, static_argnums=1)


def run(x):
    return g(x, Child(1.0, 2.0)) + g(x, Child(1.0, 3.0))
