# The seed's jitted bound method held in a local of a function goes stale the same way.
# jax 0.10.2: f(3) gives 6, then 6 again after `c.mul = False`, the jitted bound method being a local of main().
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


class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

def main():
    c = CustomClass(2, True)
    f = jit(c.calc)  # expect: JAX201
    f(3)
    c.mul = False
    return f(3)
