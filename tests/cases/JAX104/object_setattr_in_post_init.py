# An array stored by `object.__setattr__` in __post_init__ is a field of the static value: reported at that line.
import dataclasses
import jax
import numpy as np

@dataclasses.dataclass(frozen=True)
class Model:
    w: tuple
    n: int

    def __post_init__(self):
        object.__setattr__(self, "w", np.asarray(self.w))  # expect: JAX104

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x * model.n

f(Model((1.0, 2.0), 2), 1.0)
