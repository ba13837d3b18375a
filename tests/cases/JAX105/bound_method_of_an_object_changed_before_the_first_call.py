# `scaler.k` is set before `Cfg(fn=scaler.apply)` first reaches the jit, and never after: no stale value.
# jax 0.10.2 and 0.12.0.1: one trace, 7.0 and 7.0, both right.
from dataclasses import dataclass
from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, k):
        self.k = k

    def apply(self, v):
        return v * self.k


@dataclass(frozen=True)
class Cfg:
    fn: Callable


@partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    return cfg.fn(x) + 1.0


def main():
    x = jnp.float32(3.0)
    scaler = Scaler(1.0)
    scaler.k = 2.0
    first = float(step(x, cfg=Cfg(fn=scaler.apply)))  # strict: JAX105
    second = float(step(x, cfg=Cfg(fn=scaler.apply)))  # strict: JAX105
    return first, second
