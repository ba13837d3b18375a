# A strategy factory calls its `sampler_factory` field, whose default is a plain class, for each
# strategy it builds: the static field holds a new identity-compared object, one compilation each.
from typing import Callable

import attr
import jax
from flax import struct


class Sampler:
    def __init__(self, size):
        self._size = size

    def __call__(self, key):
        return jax.random.uniform(key, (self._size,))


@struct.dataclass
class Strategy:
    scale: jax.Array
    sampler: Sampler = struct.field(pytree_node=False)


@attr.define(frozen=True)
class StrategyFactory:
    sampler_factory: Callable[[int], Sampler] = attr.field(default=Sampler)

    def __call__(self, size, scale):
        return Strategy(scale=scale, sampler=self.sampler_factory(size))  # expect: JAX304


@jax.jit
def run(strategy, key):
    return strategy.sampler(key) * strategy.scale
