# A base jaxcheck cannot see may make the class a frozen pytree, so its jitted bound method is not judged.
import somelib
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


class CustomClass(somelib.Base):
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

def main():
    c = CustomClass(2, True)
    f = jit(c.calc)
    f(3)
    c.mul = False
    return f(3)
