# A class at fault itself (JAX101, JAX102 at `class`) and for its array field (JAX104) gets all three.
import jax
import jax.numpy as jnp

class Model:  # expect: JAX101  # strict: JAX102  (latent: public state the trace reads)
    def __init__(self, w):
        self.w = jnp.asarray(w)  # strict: JAX104

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x * model.w

f(Model([1.0]), 1.0)
