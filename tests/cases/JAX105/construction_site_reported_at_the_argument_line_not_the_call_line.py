# A bound method given at a multi-line construction site is reported at the argument's line, not the call's.
from dataclasses import dataclass
from functools import partial
from typing import Callable

import jax

TRACES = [0]


def double(x):
    return x * 2


class Helper:
    def __init__(self, k):
        self.k = k

    def run(self, x):
        return x * self.k


@dataclass(frozen=True)
class Cfg:
    fn: Callable


@partial(jax.jit, static_argnums=1)
def apply(x, cfg: Cfg):
    TRACES[0] += 1
    return cfg.fn(x)


def run():
    helper = Helper(2.0)
    cfg = Cfg(
        fn=helper.run,  # expect: JAX105
    )
    apply(1.0, cfg)


for _ in range(3):
    run()
