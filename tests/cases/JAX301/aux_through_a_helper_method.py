# tree_flatten returns what a helper method returns: the array aux is found there.
# jax 0.10.2: tree_flatten returns what `_flatten` returns: the mask is in the treedef.
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


WEIGHTS = [1.0, 2.0]


def relu(v):
    return jnp.maximum(v, 0.0)


class Meta:
    def __init__(self, n):
        self.n = n


@dataclass(frozen=True)
class FrozenMeta:
    n: int


@register_pytree_node_class
class Node:
    def __init__(self, x, n, mask, xs, options):
        self.x = x
        self.n = n
        self.mask = np.asarray(mask)
        self.xs = list(xs)
        self.options = dict(options)
        self.marker = object()


    def helper(self, v):
        return v * self.n

    @property
    def size(self):
        return self.n

    def tree_flatten(self):
        return self._flatten()

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)

    def _flatten(self):
        return (self.x,), (self.n, self.mask)  # expect: JAX301
