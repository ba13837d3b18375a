# A lambda made per instance and returned as aux is unequal across instances: each new pytree retraces.
# jax 0.10.2: each Node's own lambda: a loop of 4 jitted steps returning new Nodes, 4 traces.
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
        self.act = lambda v: v

    def tree_flatten(self):
        return (self.x,), (self.n, self.act)  # expect: JAX304

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)
