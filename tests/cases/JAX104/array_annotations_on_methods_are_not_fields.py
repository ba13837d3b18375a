# Array annotations on a method's parameters and locals are no fields of the static class.
import dataclasses
import jax
import numpy as np

@dataclasses.dataclass(frozen=True)
class Model:
    n: int

    def scale(self, x: jax.Array) -> jax.Array:
        y: np.ndarray = np.ones(self.n)
        return x * y

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return model.scale(x)

f(Model(3), jax.numpy.ones(3))
