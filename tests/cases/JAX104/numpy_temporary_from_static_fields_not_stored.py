# An array built in a method from static fields is a constant of the trace, never a field (equinox issue 863).
import dataclasses
import jax
import jax.numpy as jnp
import numpy as np

@dataclasses.dataclass(frozen=True)
class Model:
    n: int

    def indices(self):
        return np.arange(self.n)

    def mask(self):
        m = jnp.zeros(self.n)
        return m.at[0].set(1.0)

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x[model.indices()] * model.mask()

f(Model(3), jnp.ones(3))
