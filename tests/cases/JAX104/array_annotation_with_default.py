# A static frozen dataclass whose field is annotated `jax.Array` (with a default) holds an array: unhashable, so JAX raises.
import dataclasses
import jax
import jax.numpy as jnp

@dataclasses.dataclass(frozen=True)
class Model:
    n: int
    w: jax.Array = jnp.zeros(3)  # expect: JAX104

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x * model.n

f(Model(2), 1.0)
