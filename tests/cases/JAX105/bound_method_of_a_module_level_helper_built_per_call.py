# `Cfg(fn=HELPER.apply)` built on every call, with HELPER made once at module level: equal bound methods.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: every bound method has the same `__self__`, so the
# 4 configs compare equal: 1 trace, 7.0 each; HELPER never changes.
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


HELPER = Scaler(2.0)


@dataclass(frozen=True)
class Cfg:
    fn: Callable


@partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    global TRACES
    TRACES += 1
    return cfg.fn(x) + 1.0


def run(x):
    return step(x, cfg=Cfg(fn=HELPER.apply))


print([float(run(jnp.float32(3.0))) for _ in range(4)], "traces", TRACES)
