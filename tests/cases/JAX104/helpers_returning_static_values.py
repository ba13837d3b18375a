# Helpers that return hashable values: a shape tuple, an int from arithmetic, a NamedTuple of ints, an array or None
# (not surely an array), and a struct with a hash over its shape. A static config may hold each of them.
import dataclasses
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Dims(NamedTuple):
    rows: int
    cols: int


class Window(NamedTuple):
    taps: object

    def __hash__(self):
        return hash(self.taps.shape)

    def __eq__(self, other):
        return self.taps.shape == other.taps.shape


class Planner:
    def __init__(self, n):
        self.n = n

    def shape_of(self, x):
        return tuple(x.shape)

    def doubled(self):
        return self.n * 2

    def dims(self):
        return Dims(self.n, self.n + 1)

    def maybe_mask(self, x):
        if self.n:
            return jnp.ones(self.n)
        return None

    def window(self):
        return Window(jnp.ones(self.n))


@dataclasses.dataclass(frozen=True)
class Plan:
    shape: object
    width: object
    dims: object
    mask: object
    window: object


@partial(jax.jit, static_argnums=1)
def run(x, plan):
    return x * plan.width + plan.dims.rows + len(plan.shape)


planner = Planner(3)
x = jnp.ones((2, 2))
unmasked = Planner(0)
plan = Plan(planner.shape_of(x), planner.doubled(), planner.dims(), unmasked.maybe_mask(x), planner.window())
print(run(x, plan))
