# A `chex.dataclass` is mutable and unhashable unless `frozen=True` (checked with chex 0.1.92 on jax 0.10.2):
# at a static position jax.jit raises; the frozen one hashes by value.
from functools import partial

import chex
import jax


@chex.dataclass
class Options:  # expect: JAX106
    scale: float = 2.0


@chex.dataclass(frozen=True)
class Frozen:
    scale: float = 2.0


@partial(jax.jit, static_argnames=("opts",))
def step(x, opts):
    return x * opts.scale


def main():
    step(1.0, opts=Options())
    step(1.0, opts=Frozen())
