# `Cfg("mean", self._helper)` in a method of Reducer; only a test builds Reducers in a loop, to check each.
# jax 0.10.2 and 0.12.0.1: one trace per Reducer, as the test intends; the library builds one and keeps it.
from dataclasses import dataclass
from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Cfg:
    mode: str
    post: Callable


@partial(jax.jit, static_argnums=1)
def reduce(x, cfg: Cfg):
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


REDUCER = Reducer(2.0)


def test_each_gain():
    for k in (1.0, 2.0, 3.0):
        assert Reducer(k)(jnp.ones(3)) == k
