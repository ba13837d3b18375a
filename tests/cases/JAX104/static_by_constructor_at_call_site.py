# A class built at a static position of the jitted call is static there, though no annotation says so.
import dataclasses
import jax
import jax.numpy as jnp

@dataclasses.dataclass(frozen=True)
class Model:
    w: jnp.ndarray  # expect: JAX104
    n: int

def apply(x, model):
    return x * model.n

g = jax.jit(apply, static_argnums=1)
g(1.0, Model(jnp.ones(3), 2))
