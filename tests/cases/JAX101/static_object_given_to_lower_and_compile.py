# A plain config given to `jit(...).lower(x, cfg=cfg).compile()` is static there too: lowering again after a change reuses the trace.
# jax 0.10.2 and 0.12.0.1: 4.0 4.0 (stale; 6.0 is right) and one trace, though `.lower` is called twice.
import jax
import jax.numpy as jnp

TRACES = []


class Config:  # expect: JAX101; strict: JAX102
    def __init__(self, scale):
        self.scale = scale


def step(x, cfg):
    TRACES.append(cfg.scale)
    return x * cfg.scale


fast_step = jax.jit(step, static_argnames="cfg")


def compiled_for(x, cfg):
    return fast_step.lower(x, cfg=cfg).compile()


x = jnp.float32(2.0)
cfg = Config(2.0)
first = compiled_for(x, cfg)(x)
cfg.scale = 3.0
print(first, compiled_for(x, cfg)(x), "traces", len(TRACES))
