# Nothing is known of what the aux helper returns: jaxcheck does not guess.
import numpy as np
from jax.tree_util import register_pytree_node_class
from unknown_library import make_meta


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

    def tree_flatten(self):
        return (self.x,), make_meta(self.n)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)
