# A plain config spelt into a static parameter through `**dict(cfg=cfg)` is static like `cfg=cfg`, and changed after the call.
# jax 0.10.2 and 0.12.0.1: 4.0 4.0 (stale; 6.0 is right) and one trace.
from functools import partial

import jax

TRACES = []


class Config:  # expect: JAX101; strict: JAX102
    def __init__(self, scale):
        self.scale = scale


@partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    TRACES.append(cfg.scale)
    return x * cfg.scale


def run(x, cfg):
    return step(x, **dict(cfg=cfg))


cfg = Config(2.0)
first = run(2.0, cfg)
cfg.scale = 3.0
print(first, run(2.0, cfg), "traces", len(TRACES))
