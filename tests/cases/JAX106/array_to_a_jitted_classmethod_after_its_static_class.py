# `@classmethod` over a jit with `static_argnums=0`: argument 0 is the class, passed implicitly,
# so the array given to `Model.apply(x)` sits at position 1 and is traced, not static
# (jax 0.10.2 and 0.12.0.1: 4.0, 4.0; one trace).
from functools import partial

import jax
import jax.numpy as jnp


class Model:
    scale = 2.0

    @classmethod
    @partial(jax.jit, static_argnums=0)
    def apply(cls, x):
        return x * cls.scale


x = jnp.float32(2.0)
print(float(Model.apply(x)), float(Model.apply(x)))
