# `self` of a jitted method with argument 0 static is a static value: its array field is reported.
import dataclasses
from functools import partial
import jax
import numpy as np

@dataclasses.dataclass(frozen=True)
class Model:
    w: np.ndarray  # expect: JAX104
    n: int

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return x * self.w * self.n
