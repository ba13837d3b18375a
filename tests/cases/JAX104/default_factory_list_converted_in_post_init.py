# A default_factory list that __post_init__ converts to a tuple: the object reaching the static position holds a tuple.
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Config:
    scale: float = 1.0
    sizes: tuple = dataclasses.field(default_factory=list)

    def __post_init__(self):
        object.__setattr__(self, "sizes", tuple(self.sizes))


@functools.partial(jax.jit, static_argnums=1)
def f(x, cfg):
    return x * cfg.scale * len(cfg.sizes)


f(jnp.ones(3), Config())
f(jnp.ones(3), Config(2.0))
