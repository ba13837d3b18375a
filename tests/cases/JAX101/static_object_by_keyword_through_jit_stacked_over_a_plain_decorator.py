# `@jax.jit(static_argnames="cfg")` over a decorator without functools.wraps: `cfg=` given by keyword is static, and goes stale.
# jax 0.10.2 and 0.12.0.1: 4.0 4.0 (stale; 6.0 is right), one trace (given positionally, JAX raises a TypeError instead).
import jax

TRACES = []


def timed(fn):
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


class Config:  # expect: JAX101; strict: JAX102
    def __init__(self, scale):
        self.scale = scale


@jax.jit(static_argnames="cfg")
@timed
def step(x, cfg):
    TRACES.append(cfg.scale)
    return x * cfg.scale


cfg = Config(2.0)
first = step(2.0, cfg=cfg)
cfg.scale = 3.0
print(first, step(2.0, cfg=cfg), "traces", len(TRACES))
