# `field(default_factory=dict)` on a frozen config, but every construction passes a tuple of pairs for it: the
# default dict is never made for an object that reaches the static position. A `default_factory=tuple` is
# hashable. Nothing is flagged by default.
import dataclasses
from functools import partial

import jax


@dataclasses.dataclass(frozen=True)
class Options:
    scale: float = 3.0
    extras: dict = dataclasses.field(default_factory=dict)  # strict: JAX104
    names: tuple = dataclasses.field(default_factory=tuple)


@partial(jax.jit, static_argnames=("opts",))
def step(x, opts):
    return x * opts.scale


def main():
    step(1.0, opts=Options(extras=(("shift", 1.0),)))
    step(1.0, opts=Options(2.0, (("shift", 2.0),)))
