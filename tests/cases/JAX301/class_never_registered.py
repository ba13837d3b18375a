# A flatten method of a class never registered is never called by JAX: its aux data is no treedef.
# jax 0.10.2: no pytree: jit rejects the Node (`TypeError: Error interpreting argument to
# <function ...> as an abstract array`) and never calls its `tree_flatten`.
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


class Node:
    def __init__(self, x, n, mask):
        self.x = x
        self.n = n
        self.mask = np.asarray(mask)

    def tree_flatten(self):
        return (self.x,), (self.n, self.mask)

    def tree_flatten_with_keys(self):
        return ((GetAttrKey("x"), self.x),), (self.n, self.mask)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)


def flatten_node(node):
    return (node.x,), (node.n, node.mask)


def flatten_node_with_keys(node):
    return ((GetAttrKey("x"), node.x),), (node.n, node.mask)


def unflatten_node(aux, children):
    return Node(*children, *aux)
