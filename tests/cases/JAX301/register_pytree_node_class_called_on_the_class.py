# `C = register_pytree_node_class(C)` registers the class just as the decorator does.
import numpy as np
from jax.tree_util import register_pytree_node_class

class Masked:
    def __init__(self, x, mask):
        self.x = x
        self.mask = np.asarray(mask)

    def tree_flatten(self):
        return (self.x,), self.mask  # expect: JAX301

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, aux)

Masked = register_pytree_node_class(Masked)
