# An eqx static field given a new lambda per instance: models built alike still retrace.
# equinox 0.13.8: each Model(w, 2.0) holds a new lambda: 4 models built alike, 4 traces.
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


def scale_by(v):
    return v * 2.0


class Model(eqx.Module):
    w: jax.Array
    act: Callable = eqx.field(static=True)  # expect: JAX304

    def __init__(self, w, scale):
        self.w = w
        self.act = lambda v: v * scale
