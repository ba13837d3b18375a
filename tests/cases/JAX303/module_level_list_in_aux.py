# Every flatten returns the one module-level list as aux: appending to it changes the cached key, and jit is stale.
# jax 0.10.2: every flatten returns the one module-level list: after `WEIGHTS.append(10.0)`
# jit gives 3.0 again where 13.0 is right, traced once.
import numpy as np
from jax.tree_util import register_pytree_node_class


WEIGHTS = [1.0, 2.0]


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
        return (self.x,), WEIGHTS  # strict: JAX303

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)
