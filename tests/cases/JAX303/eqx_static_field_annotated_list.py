# An eqx static field annotated `list` holds the caller's list: changed in place, the cached key changes and jit is stale.
# equinox 0.13.8: after the caller's list is appended to, jit gives 3.0 again where 13.0 is right.
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
    xs: list = eqx.field(static=True)  # strict: JAX303
