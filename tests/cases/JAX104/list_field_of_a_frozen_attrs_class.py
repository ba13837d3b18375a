# A frozen attrs class (`@attrs.frozen`, hashed by value over its fields) with a list field, static to jax.jit.
# jax 0.10.2 and 0.12.0.1 (attrs 26.1.0): the generated __hash__ hashes the list: the call raises
# `ValueError: Non-hashable static arguments are not supported`.
from functools import partial

import attrs
import jax
import jax.numpy as jnp


@attrs.frozen
class Layers:
    sizes: list[int]  # expect: JAX104
    act: str = "relu"


@partial(jax.jit, static_argnames="cfg")
def width(x, cfg: Layers):
    return x * sum(cfg.sizes)


try:
    print(float(width(jnp.float32(1.0), cfg=Layers([4, 8]))))
except ValueError as e:
    print(str(e).splitlines()[0][:55])
