# A project wrapper around `flax.struct.field(pytree_node=False)` marks a field that is given an array.
# jax 0.10.2 / flax 0.12.8 and jax 0.12.0.1 / flax 0.12.12: the array is aux_data; a second Layer with an
# equal mask raises `ValueError: Exception raised while checking equality of metadata fields of pytree ...`.
import jax
import jax.numpy as jnp
from flax import struct


def const(**kwargs):
    return struct.field(pytree_node=False, **kwargs)


@struct.dataclass
class Layer:
    w: jax.Array
    mask: jax.Array = const()  # expect: JAX302


@jax.jit
def apply(layer, x):
    return jnp.sum(layer.w * layer.mask * x)


x = jnp.ones(3)
try:
    print([float(apply(Layer(jnp.ones(3), jnp.array([1.0, 0.0, 1.0])), x)) for _ in range(2)])
except ValueError as e:
    print(str(e).splitlines()[0][:80])
