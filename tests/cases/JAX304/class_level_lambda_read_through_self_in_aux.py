# A class-level lambda read through `self` is a new bound method per instance: each new pytree retraces.
# jax 0.10.2: `self.act` is a bound method (type `method`): a loop of 4 jitted steps returning
# new Nodes, 4 traces.
import numpy as np
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Node:
    act = lambda v: v

    def __init__(self, x, n, mask, xs, options):
        self.x = x
        self.n = n
        self.mask = np.asarray(mask)
        self.xs = list(xs)
        self.options = dict(options)
        self.marker = object()

    def tree_flatten(self):
        return (self.x,), (self.n, self.act)  # expect: JAX304

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)
