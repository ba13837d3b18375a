# After the first call the Scaler's `label` changes, which `apply` never reads; another Scaler's `k` changes too.
# jax 0.10.2 and 0.12.0.1: the results stay right (7.0, 7.0); nothing the compiled code baked in has changed.
from dataclasses import dataclass
from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, k, label=""):
        self.k = k
        self.label = label

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
    scaler = Scaler(2.0)
    other = Scaler(5.0)
    first = float(step(x, cfg=Cfg(fn=scaler.apply)))  # strict: JAX105
    scaler.label = "second"
    other.k = 3.0
    second = float(step(x, cfg=Cfg(fn=scaler.apply)))  # strict: JAX105
    return first, second
