# A NamedTuple is a pytree: passed at a traced position its array field is traced, not hashed.
from typing import NamedTuple
from functools import partial
import jax
import jax.numpy as jnp

class Params(NamedTuple):
    w: jax.Array
    b: jax.Array

@partial(jax.jit, static_argnums=2)
def apply(x, params: Params, n: int):
    return (x * params.w + params.b) * n

apply(1.0, Params(jnp.ones(3), jnp.zeros(3)), 2)
