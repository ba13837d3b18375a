# A library's mutable dataclass compared by identity is a static argument: its users set `scale` on the object they passed.
# jax 0.10.2 and 0.12.0.1: 2.0, then 2.0 again where 3.0 is right after `cfg.scale = 3.0`.
import dataclasses
from functools import partial

import jax


@dataclasses.dataclass(eq=False)
class Config:  # expect: JAX101; strict: JAX102
    scale: float = 1.0


@partial(jax.jit, static_argnums=1)
def apply(x, cfg: Config):
    return x * cfg.scale
