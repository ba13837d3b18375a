# `Cfg(fn=scaler.apply)` for one Scaler whose `k` changes between calls: the bound method compares equal, stale.
# Reported where the change first reaches: the call made before `scaler.k` changes.
# jax 0.10.2 and 0.12.0.1: the second Cfg is bound to the same Scaler, so it equals the cached key and
# jax.jit reuses the function compiled for k=2.0: 7.0 then 7.0 where 7.0 then 10.0 is right (1 trace).
from dataclasses import dataclass
from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp

TRACES = 0


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
    global TRACES
    TRACES += 1
    return cfg.fn(x) + 1.0


def main():
    x = jnp.float32(3.0)
    scaler = Scaler(2.0)
    first = float(step(x, cfg=Cfg(fn=scaler.apply)))  # expect: JAX105
    scaler.k = 3.0
    second = float(step(x, cfg=Cfg(fn=scaler.apply)))  # strict: JAX105
    return (first, second), TRACES


if __name__ == "__main__":
    print(main())
