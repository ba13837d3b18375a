# A config holding a functools.partial, built once before the loop and reused: the same key every turn.
# jax 0.10.2 and 0.12.0.1: the one Cfg object is passed 4 times, 1 trace, right results. No evidence, so
# the default profile is silent; the strict profile flags the partial (not a singleton) as the standard asks.
import functools
from dataclasses import dataclass
from typing import Callable

import jax
import jax.numpy as jnp

TRACES = 0


def g(v, k):
    return v * k


@dataclass(frozen=True)
class Cfg:
    fn: Callable


@functools.partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    global TRACES
    TRACES += 1
    return cfg.fn(x) + 1.0


def _train(x):
    cfg = Cfg(fn=functools.partial(g, k=2))  # strict: JAX105
    for _ in range(4):
        x = step(x, cfg=cfg)
    return x


_train(jnp.float32(3.0))
print("traces", TRACES)
