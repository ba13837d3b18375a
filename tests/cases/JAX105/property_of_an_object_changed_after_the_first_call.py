# `Cfg(gain=scaler.gain)` reads a property: the Cfg holds its value (a float, compared by value), not a
# bound method. After `scaler.k = 3.0` the next Cfg holds 3.0, a new key: jax.jit traces again and
# gives 10.0, right (jax 0.10.2 and 0.12.0.1).
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, k):
        self.k = k

    @property
    def gain(self):
        return self.k


@dataclass(frozen=True)
class Cfg:
    gain: float


@partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    return x * cfg.gain + 1.0


def main():
    x = jnp.float32(3.0)
    scaler = Scaler(2.0)
    first = float(step(x, cfg=Cfg(gain=scaler.gain)))
    scaler.k = 3.0
    second = float(step(x, cfg=Cfg(gain=scaler.gain)))
    return first, second
