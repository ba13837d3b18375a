# Configs holding a lambda or partial built once at module level are reused, never rebuilt: no retrace.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
import dataclasses
from functools import partial
from typing import Callable
import jax, jax.numpy as jnp

TRACES = 0

@dataclasses.dataclass(frozen=True)
class Cfg:
    fn: Callable
    k: int = 2

@partial(jax.jit, static_argnums=1)
def step(x, cfg):
    global TRACES; TRACES += 1
    return cfg.fn(x) * cfg.k

DEFAULT = Cfg(fn=lambda v: v * 2)
SOFT = Cfg(partial(jnp.clip, min=0.0))

def train(x):
    for _ in range(3):
        x = step(x, DEFAULT)
        x = step(x, SOFT)
    return x

print(train(1.0), train(1.0), "traces", TRACES)
