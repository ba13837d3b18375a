# A name bound to a constructor and passed by a static keyword makes its class static.
import dataclasses
import jax
import jax.numpy as jnp

@dataclasses.dataclass(frozen=True)
class Model:
    w: jnp.ndarray  # expect: JAX104
    n: int

def apply(x, model):
    return x * model.n

g = jax.jit(apply, static_argnames="model")
m = Model(jnp.ones(3), 2)
g(1.0, model=m)
