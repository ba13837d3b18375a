# `stages or ()` in the __post_init__ of a frozen dataclass keeps a tuple: the generated hash
# works and the static argument is hashable (jax 0.10.2 and 0.12.0.1: 7.0).
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
        object.__setattr__(self, "stages", tuple(self.stages or ()))


@partial(jax.jit, static_argnums=1)
def run(x, pipe: Pipeline):
    y = x * pipe.scale
    for stage in pipe.stages:
        y = y * 2 if stage == "double" else y + 1
    return y


print(float(run(jnp.float32(3.0), Pipeline(stages=("double", "inc")))))
