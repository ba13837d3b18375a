# A plain config bound to a static parameter by functools.partial and never changed: one identity key, nothing goes stale.
# jax 0.10.2 and 0.12.0.1: 4.0 on each of 3 calls, one trace; only the design standard objects to the class.
import functools

import jax

TRACES = []


class Config:  # expect: JAX101  # strict: JAX102  (latent: public state the trace reads)
    def __init__(self, scale):
        self.scale = scale


@functools.partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    TRACES.append(cfg.scale)
    return x * cfg.scale


run = functools.partial(step, cfg=Config(2.0))
print([float(run(2.0)) for _ in range(3)], "traces", len(TRACES))
