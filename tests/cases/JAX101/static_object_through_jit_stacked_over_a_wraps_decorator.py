# `@partial(jax.jit, static_argnames=...)` over a functools.wraps decorator still makes the parameter static: the plain config goes stale.
# jax 0.10.2 and 0.12.0.1: 4.0 4.0 (stale; 6.0 is right) and one trace (the signature is read through `__wrapped__`).
import functools
from functools import partial

import jax

TRACES = []


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


class Config:  # expect: JAX101; strict: JAX102
    def __init__(self, scale):
        self.scale = scale


@partial(jax.jit, static_argnames="cfg")
@logged
def step(x, cfg):
    TRACES.append(cfg.scale)
    return x * cfg.scale


cfg = Config(2.0)
first = step(2.0, cfg)
cfg.scale = 3.0
print(first, step(2.0, cfg), "traces", len(TRACES))
