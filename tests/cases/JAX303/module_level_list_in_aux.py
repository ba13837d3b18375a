# Every flatten returns the one module-level list as aux: appending to it changes the cached key, and jit is stale.
# jax 0.10.2: every flatten returns the one module-level list: after `WEIGHTS.append(10.0)`
# jit gives 3.0 again where 13.0 is right, traced once.
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
        return (self.x,), WEIGHTS  # strict: JAX303

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)
