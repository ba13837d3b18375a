# A NamedTuple is hashable only when its elements are: an array field passed static makes JAX raise.
from typing import NamedTuple
import jax

class Model(NamedTuple):
    w: jax.Array  # expect: JAX104
    n: int

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x * model.n

f(Model(jax.numpy.ones(3), 2), 1.0)
