# Look-alike of a default factory field: the class it builds is a frozen dataclass, compared by
# value, so strategies built alike have equal structures and share one compilation.
import dataclasses
from typing import Callable

import attr
import jax
from flax import struct


@dataclasses.dataclass(frozen=True)
class Sampler:
    size: int

    def __call__(self, key):
        return jax.random.uniform(key, (self.size,))


@struct.dataclass
class Strategy:
    scale: jax.Array
    sampler: Sampler = struct.field(pytree_node=False)


@attr.define(frozen=True)
class StrategyFactory:
    sampler_factory: Callable[[int], Sampler] = attr.field(default=Sampler)

    def __call__(self, size, scale):
        return Strategy(scale=scale, sampler=self.sampler_factory(size))


@jax.jit
def run(strategy, key):
    return strategy.sampler(key) * strategy.scale
