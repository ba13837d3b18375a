# The array in aux data reaches the returned tuple through a local: it is in the treedef all the same.
# jax 0.10.2: the local is the tuple returned: the mask is in the treedef (ValueError on a second Node).
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
        aux = (self.n, self.mask)  # expect: JAX301
        return (self.x,), aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)
