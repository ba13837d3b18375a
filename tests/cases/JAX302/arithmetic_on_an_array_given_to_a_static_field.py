# Arithmetic with an array is an array: `2 * np.ones(3)` given to a static field is part of the tree's structure.
# jax 0.10.2 and 0.12.0.1: the second call, with an equal array in a new object, raises
# ValueError: Exception raised while checking equality of metadata fields of pytree.
import jax
import jax.numpy as jnp
import numpy as np
from flax import struct


@struct.dataclass
class Scaled:
    x: jax.Array
    weights: object = struct.field(pytree_node=False)  # expect: JAX302


@jax.jit
def total(tree):
    return jnp.sum(tree.x * jnp.asarray(tree.weights))


print(total(Scaled(jnp.ones(3), 2 * np.ones(3))))
print(total(Scaled(jnp.ones(3), 2 * np.ones(3))))
