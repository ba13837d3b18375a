# A plain config at an nnx.jit static_argnums position, changed after the first call: identity key, stale.
# jax 0.10.2 / flax 0.12.8 and jax 0.12.0.1 / flax 0.12.12: 4.0 4.0 (stale; 6.0 is right) and one trace.
from flax import nnx

TRACES = []


class Config:  # expect: JAX101; strict: JAX102
    def __init__(self, scale):
        self.scale = scale


@nnx.jit(static_argnums=1)
def step(x, cfg):
    TRACES.append(cfg.scale)
    return x * cfg.scale


cfg = Config(2.0)
first = step(2.0, cfg)
cfg.scale = 3.0
print(first, step(2.0, cfg), "traces", len(TRACES))
