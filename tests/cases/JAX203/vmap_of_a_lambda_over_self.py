# vmap keeps no trace, so a vmapped lambda over `self` reads the current state on every call.
# jax 0.10.2: vmap keeps no trace: each call reads the current `self.scale`.
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


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.bias = 1.0
        self._f = None

    def build(self, other):
        self._f = jax.vmap(lambda x: x * self.scale)

    def set_scale(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._f(x)
