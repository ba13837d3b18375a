# The helper's `cfg` is its own local, built from a number, not what its callers pass as
# `cfg=`: the plain object its caller builds never reaches the jit (jax 0.10.2 and 0.12.0.1:
# 4.0 then 6.0, right, 2 traces).
import dataclasses
from functools import partial

import jax

TRACES = []


class Settings:
    def __init__(self, scale):
        self.scale = scale


@dataclasses.dataclass(frozen=True)
class Config:
    scale: float


@partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    TRACES.append(cfg.scale)
    return x * cfg.scale


def run(x, scale, **options):
    cfg = Config(scale)
    return step(x, cfg=cfg)


settings = Settings(2.0)
first = run(2.0, 2.0, cfg=settings)
settings.scale = 3.0
print(first, run(2.0, 3.0, cfg=settings), "traces", len(TRACES))
