# The (children, aux) pair bound to a local first is the pair returned: its array aux is in the treedef.
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

    def tree_flatten(self):
        pair = (self.x,), (self.n, self.mask)  # expect: JAX301
        return pair

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)
