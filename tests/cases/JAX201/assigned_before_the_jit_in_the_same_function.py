# State assigned before the bound method is first traced is the state compiled in: nothing goes stale.
# jax 0.10.2: `mul` is False when f is first traced: f(3) is 3, as expected.
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
    c.mul = False
    f = jit(c.calc)
    f(3)
    return f(3)
