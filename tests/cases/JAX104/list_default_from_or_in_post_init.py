# `stages or []` in the __post_init__ of a frozen dataclass stores a list in a compared field.
# jax 0.10.2 and 0.12.0.1: Pipeline() holds [] and hashes its fields, so the call raises
# `ValueError: Non-hashable static arguments are not supported`.
import dataclasses
from functools import partial
from typing import Optional, Sequence

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Pipeline:
    scale: float = 1.0
    stages: Optional[Sequence[str]] = None

    def __post_init__(self):
        object.__setattr__(self, "stages", self.stages or [])  # expect: JAX104


@partial(jax.jit, static_argnums=1)
def run(x, pipe: Pipeline):
    y = x * pipe.scale
    for stage in pipe.stages:
        y = y * 2 if stage == "double" else y + 1
    return y


try:
    print(float(run(jnp.float32(3.0), Pipeline())))
except ValueError as e:
    print(str(e).splitlines()[0][:55])
