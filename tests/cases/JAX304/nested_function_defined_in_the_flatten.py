# A function defined in the flatten is new on every flatten: never equal to the cached aux, so jit retraces.
# jax 0.10.2: `def act` runs on every flatten and makes a new function: the same Node, 4 traces.
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
        def act(v):
            return v * 2

        return (self.x,), act  # expect: JAX304

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)
