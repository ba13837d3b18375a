# `nnx.static` makes a value pytree metadata; an array there makes flax raise.
# flax 0.12.8: `nnx.static` makes `m` pytree metadata; given an array, `Model(...)` raises
# `ValueError: Found data in value of type '<class 'numpy.ndarray'>' annotated with nnx.static(...)`.
import dataclasses
import functools
from dataclasses import dataclass
from functools import partial
from typing import Callable, Sequence

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
from flax import nnx, struct
from jax.tree_util import (
    GetAttrKey,
    register_dataclass,
    register_pytree_node,
    register_pytree_node_class,
    register_pytree_with_keys,
    register_pytree_with_keys_class,
)
from jaxtyping import Array, Float
from unknown_library import make_meta


class Model(nnx.Module):
    def __init__(self, w):
        self.w = nnx.Param(w)
        self.m = nnx.static(np.ones(3))  # expect: JAX302

    def __call__(self, x):
        return jnp.sum(self.w * self.m * x)
