# A numpy dtype and a tuple of ints stored in __post_init__ are hashable values, not arrays.
import dataclasses
import jax
import numpy as np

@dataclasses.dataclass(frozen=True)
class Model:
    dtype: str
    shape: tuple

    def __post_init__(self):
        object.__setattr__(self, "dtype", np.dtype(self.dtype))
        object.__setattr__(self, "shape", tuple(int(d) for d in self.shape))

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x.astype(model.dtype).reshape(model.shape)

f(Model("float32", (2,)), jax.numpy.ones(2))
