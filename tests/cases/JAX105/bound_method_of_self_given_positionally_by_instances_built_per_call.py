# `Cfg("mean", self._helper)` built inside a method of an object made anew on every turn: one trace per turn.
# jax 0.10.2 and 0.12.0.1: each Reducer(2.0) is a new `__self__`, so each Cfg is a new key: 4 traces where 1 is needed.
from dataclasses import dataclass
from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp

TRACES = 0


@dataclass(frozen=True)
class Cfg:
    mode: str
    post: Callable


@partial(jax.jit, static_argnums=1)
def reduce(x, cfg: Cfg):
    global TRACES
    TRACES += 1
    y = jnp.mean(x) if cfg.mode == "mean" else jnp.sum(x)
    return cfg.post(y)


class Reducer:
    def __init__(self, k):
        self.k = k

    def _helper(self, y):
        return y * self.k

    def __call__(self, x):
        cfg = Cfg("mean", self._helper)  # expect: JAX105
        return reduce(x, cfg)


def main():
    x = jnp.ones(3)
    for _ in range(4):
        Reducer(2.0)(x)
    return TRACES


if __name__ == "__main__":
    print("traces", main())
