# A frozen config passed to a static parameter through `**{"cfg": cfg}` and replaced by a changed copy: a new key, right result.
# jax 0.10.2 and 0.12.0.1: 4.0 6.0 (right) and two traces.
import dataclasses
from functools import partial

import jax

TRACES = []


@dataclasses.dataclass(frozen=True)
class Config:
    scale: float


@partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    TRACES.append(cfg.scale)
    return x * cfg.scale


cfg = Config(2.0)
first = step(2.0, **{"cfg": cfg})
cfg = dataclasses.replace(cfg, scale=3.0)
print(first, step(2.0, **{"cfg": cfg}), "traces", len(TRACES))
