# A project wrapper around `dataclasses.field` that does not mark the field static: under
# `register_dataclass` the array is a leaf, traced like `x` (jax 0.10.2 and 0.12.0.1: 2.0, 2.0).
import dataclasses

import jax
import jax.numpy as jnp


def data_field(**kwargs):
    return dataclasses.field(metadata={"static": False}, **kwargs)


def static_field(**kwargs):
    return dataclasses.field(metadata={"static": True}, **kwargs)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Masked:
    x: jax.Array
    mask: jax.Array = data_field()
    name: str = static_field(default="m")


@jax.jit
def masked_sum(masked):
    return jnp.sum(masked.x * masked.mask)


print([float(masked_sum(Masked(jnp.ones(3), jnp.array([1.0, 0.0, 1.0])))) for _ in range(2)])
