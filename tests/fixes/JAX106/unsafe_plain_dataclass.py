"""A plain @dataclass at a static position is unhashable: it is made frozen."""
import dataclasses

import jax


@dataclasses.dataclass  # the step's settings
class Config:
    scale: int  # how much


def step(x, cfg):
    return x * cfg.scale


g = jax.jit(step, static_argnames=("cfg",))


def run(x):
    return g(x, cfg=Config(3))
