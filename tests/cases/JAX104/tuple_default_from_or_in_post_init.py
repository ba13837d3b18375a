# `tuple(stages or ())` in the __post_init__ of a frozen dataclass: the field holds a hashable tuple.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: Pipeline() and Pipeline(stages=["double"])
# hash by value, give 3.0 and 6.0, and equal pipelines share a trace (2 traces for 4 calls).
import dataclasses
from functools import partial
from typing import Optional, Sequence

import jax
import jax.numpy as jnp

TRACES = 0


@dataclasses.dataclass(frozen=True)
class Pipeline:
    scale: float = 1.0
    stages: Optional[Sequence[str]] = None

    def __post_init__(self):
        object.__setattr__(self, "stages", tuple(self.stages or ()))


@partial(jax.jit, static_argnums=1)
def run(x, pipe: Pipeline):
    global TRACES
    TRACES += 1
    y = x * pipe.scale
    for stage in pipe.stages:
        y = y * 2 if stage == "double" else y + 1
    return y


x = jnp.float32(3.0)
out = [float(run(x, Pipeline())), float(run(x, Pipeline(stages=["double"])))]
out += [float(run(x, Pipeline())), float(run(x, Pipeline(stages=["double"])))]
print(out, "traces", TRACES)
