# A field's own list returned as aux through a local is changed in place with the cached key: stale.
# jax 0.10.2: after the list is appended to, jit gives the stale result, traced once.
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
        xs = self.xs  # strict: JAX303
        return (self.x,), xs

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)
