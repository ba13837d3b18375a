# A lambda jitted in __init__ of a class built in a loop compiles once per object built.
# jax 0.10.2: each Evaluator(...) jits a new lambda: a compile per object.
import dataclasses
import functools
from functools import partial
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
from flax import nnx, struct
from jax import jit
from jax import jit as J
from jax.experimental.pjit import pjit
from jax.tree_util import register_pytree_node_class


def body(v):
    return v * 2


def evaluate(x):
    return jax.jit(functools.partial(body))(x)


class Evaluator:
    def __init__(self, x):
        self.first = jax.jit(lambda v: v + 1)(x)  # expect: JAX401


def main(xs):
    return [Evaluator(x) for x in xs]
