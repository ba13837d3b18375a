# The options are turned into values that hash by value before the call: a NamedTuple, a tuple, a float.
import argparse
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Options(NamedTuple):
    scale: float


@functools.partial(jax.jit, static_argnames="args")
def step(x, args):
    return x * args.scale


@functools.partial(jax.jit, static_argnames="scale")
def scaled(x, scale):
    return x * scale


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=2.0)
    args = parser.parse_args(argv)
    step(jnp.ones(3), args=Options(args.scale))
    scaled(jnp.ones(3), scale=args.scale)
    return scaled(jnp.ones(3), scale=(args.scale,))
