# A jitted classmethod with `cls` static reads `cls.scale`, which nothing reassigns; the project
# changes only `Model.label`, which the compiled function never reads
# (jax 0.10.2 and 0.12.0.1: 4.0, 4.0, right, one trace).
from functools import partial

import jax
import jax.numpy as jnp


class Model:
    scale = 2.0
    label = "base"

    @classmethod
    @partial(jax.jit, static_argnums=0)
    def apply(cls, x):
        return x * cls.scale


x = jnp.float32(2.0)
first = float(Model.apply(x))
Model.label = "renamed"
print(first, float(Model.apply(x)))
