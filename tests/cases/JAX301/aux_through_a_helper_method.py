# tree_flatten returns what a helper method returns: the array aux is found there.
# jax 0.10.2: tree_flatten returns what `_flatten` returns: the mask is in the treedef.
from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np
from jax.tree_util import (
    register_pytree_node_class,
)


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
