# An array passed beside a static class, at a traced position, is traced: the static class holds no array.
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp

@dataclasses.dataclass(frozen=True)
class Model:
    n: int

@partial(jax.jit, static_argnums=2)
def apply(x, w: jax.Array, model: Model) -> jax.Array:
    return jnp.sum(x * w) * model.n

apply(jnp.ones(3), jnp.array([1.0, 2.0, 3.0]), Model(2))
