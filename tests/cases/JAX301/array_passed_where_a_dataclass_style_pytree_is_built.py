# An array passed for a metadata field where a registered dataclass is built puts the array in the treedef.
# jax 0.10.2: `Node(..., mask=np.ones(3))` puts the numpy array in the treedef: a second,
# equal Node raises `ValueError: ... (Note: arrays cannot be passed as metadata fields!)`.
import dataclasses
from typing import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
@dataclasses.dataclass
class Node:
    x: jax.Array
    n: int
    mask: Sequence[float]

    def tree_flatten(self):
        return (self.x,), (self.n, self.mask)  # expect: JAX301

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)


NODE = Node(jnp.ones(3), 2, mask=np.ones(3))
