# The static half of `eqx.partition(model, eqx.is_array)` at a static position is the model with its arrays
# replaced by None, hashed whole: a dict field raises in jax.jit, an array field is None there, and the half
# passed as a regular argument is traced.
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


class Model(eqx.Module):
    weight: jax.Array
    config: dict  # expect: JAX104


class Clean(eqx.Module):
    weight: jax.Array
    names: tuple


@partial(jax.jit, static_argnums=1)
def step(dynamic, static, x):
    return eqx.combine(dynamic, static).weight * x


def main():
    dynamic, static = eqx.partition(Model(jnp.ones(3), {"scale": 2.0}), eqx.is_array)
    step(dynamic, static, 1.0)
    dynamic, static = eqx.partition(Clean(jnp.ones(3), ("a",)), eqx.is_array)
    step(dynamic, static, 1.0)
