# A class with an array field that is never passed static holds nothing JAX hashes.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Model:
    w: jax.Array
    n: int


@partial(jax.jit, static_argnums=())
def f(x, model: Model):
    return x * model.n


f(1.0, Model(jnp.ones(3), 2))
