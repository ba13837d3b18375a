# A partial made in __post_init__ into a `compare=False` field follows the compared `k`: equal configs hit the cache.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: 4 runs build 4 equal Cfg(2), 1 trace; Cfg(3) traces
# once more and gives 3 * 3 + 1 = 10.0, the right value.
import dataclasses
import functools
from typing import Callable

import jax
import jax.numpy as jnp

TRACES = 0


def g(v, k):
    return v * k


@dataclasses.dataclass(frozen=True)
class Cfg:
    k: int
    fn: Callable = dataclasses.field(default=None, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "fn", functools.partial(g, k=self.k))


@functools.partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    global TRACES
    TRACES += 1
    return cfg.fn(x) + 1.0


def run(x, k):
    return step(x, cfg=Cfg(k))


for _ in range(4):
    run(jnp.float32(3.0), 2)
print("traces", TRACES, float(run(jnp.float32(3.0), 3)), "traces", TRACES)
