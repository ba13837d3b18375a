# `Cfg("mean", self._helper)` built in a method of one long-lived, unchanged object: equal keys, 1 trace.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: every Cfg is bound to the same Reducer, so the
# bound methods compare equal and the 4 calls share 1 trace; the Reducer's state never changes.
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
        cfg = Cfg("mean", self._helper)  # strict: JAX105
        return reduce(x, cfg)


def main():
    x = jnp.ones(3)
    reducer = Reducer(2.0)
    for _ in range(4):
        reducer(x)
    return TRACES


if __name__ == "__main__":
    print("traces", main())
