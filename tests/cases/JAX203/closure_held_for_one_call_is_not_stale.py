# A jitted closure over `self` made per call and used within that call never outlives a change of `self.scale`.
# jax 0.10.2: `f` is a new function on every call of `run`, and nothing in `run`
# changes `self.scale` between its two uses: never stale (the setter runs between calls).
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

    def set_scale(self, scale):
        self.scale = scale

    def run(self, x):
        f = jax.jit(lambda v: v * self.scale)
        return f(f(x))
