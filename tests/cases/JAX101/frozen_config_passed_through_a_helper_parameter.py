# A helper hands its `cfg` parameter on to a static parameter; its callers pass frozen
# dataclasses, equal when equal: one compilation per distinct value, nothing goes stale
# (jax 0.10.2 and 0.12.0.1: 4.0, then 6.0 for a new Config(3.0); 2 traces).
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


def run(x, cfg):
    return step(x, cfg=cfg)


print(run(2.0, Config(2.0)), run(2.0, Config(3.0)), "traces", len(TRACES))
