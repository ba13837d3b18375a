# A plain config bound to a static parameter by functools.partial, then changed: each call of the partial is `step(x, cfg=cfg)`.
# jax 0.10.2 and 0.12.0.1: 4.0 4.0 (stale; 6.0 is right) and one trace.
import functools

import jax

TRACES = []


class Config:  # expect: JAX101; strict: JAX102
    def __init__(self, scale):
        self.scale = scale


def step(x, cfg):
    TRACES.append(cfg.scale)
    return x * cfg.scale


fast_step = jax.jit(step, static_argnames="cfg")
cfg = Config(2.0)
run = functools.partial(fast_step, cfg=cfg)
first = run(2.0)
cfg.scale = 3.0
print(first, run(2.0), "traces", len(TRACES))
