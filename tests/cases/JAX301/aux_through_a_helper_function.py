# tree_flatten returns what a module-level helper given `self` returns: the array aux is found there.
# jax 0.10.2: the mask is in the treedef (ValueError on a second Node).
import numpy as np
from jax.tree_util import register_pytree_node_class


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
        return _flat(self)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)


def _flat(node):
    return (node.x,), (node.n, node.mask)  # expect: JAX301
