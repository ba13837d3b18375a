"""A dataclass with unsafe_hash=True changed after the first call (under an alias of `dataclass`)."""
from dataclasses import dataclass as dc

import jax


@dc(unsafe_hash=True, repr=False)
class Config:
    scale: int


def step(x, cfg):
    return x * cfg.scale


g = jax.jit(step, static_argnums=1)


def run(x):
    cfg = Config(2)
    y = g(x, cfg)
    cfg.scale = 3
    return g(x, cfg) + y
