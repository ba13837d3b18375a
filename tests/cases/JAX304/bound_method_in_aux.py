# A bound method in aux equals itself only for the same object: each new pytree retraces.
# jax 0.10.2: `self.helper` equals itself only for the same Node: a loop of 4 jitted steps,
# each returning a new Node, traces 4 times (the same Node passed 4 times: once).
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
        return (self.x,), self.helper  # expect: JAX304

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)
