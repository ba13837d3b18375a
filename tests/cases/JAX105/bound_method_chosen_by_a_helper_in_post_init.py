# `object.__setattr__(self, "fn", self._pick())` in a frozen dataclass's __post_init__: `_pick` returns a bound method.
# jax 0.10.2 and 0.12.0.1: each Act("relu") gets `fn` bound to itself, so 4 equal Act("relu") built per call are
# 4 unequal keys: 4 traces where 1 is needed.
from dataclasses import dataclass
from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp

TRACES = 0


@dataclass(frozen=True)
class Act:
    name: str
    fn: Callable = None

    def __post_init__(self):
        object.__setattr__(self, "fn", self._pick())  # expect: JAX105

    def _pick(self):
        return self._relu if self.name == "relu" else self._tanh

    def _relu(self, x):
        return jnp.maximum(x, 0.0)

    def _tanh(self, x):
        return jnp.tanh(x)


@partial(jax.jit, static_argnums=1)
def step(x, act: Act):
    global TRACES
    TRACES += 1
    return act.fn(x)


for _ in range(4):
    step(jnp.float32(-1.0), Act("relu"))
print("traces", TRACES)
