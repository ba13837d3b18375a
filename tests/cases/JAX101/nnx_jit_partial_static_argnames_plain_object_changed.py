# A plain config named static by nnx.jit_partial's static_argnames, changed after the first call: identity key, stale.
# jax 0.10.2 / flax 0.12.8 and jax 0.12.0.1 / flax 0.12.12: the same result after the change, and one trace (stale).
import jax.numpy as jnp
from flax import nnx

TRACES = []


class Config:  # expect: JAX101; strict: JAX102
    def __init__(self, scale):
        self.scale = scale


def step(model, x, cfg):
    TRACES.append(cfg.scale)
    return (model(x) * cfg.scale).sum()


model = nnx.Linear(1, 1, rngs=nnx.Rngs(0))
run = nnx.jit_partial(step, model, static_argnames="cfg", graph_updates=False)
cfg = Config(2.0)
first = run(jnp.ones((1, 1)), cfg=cfg)
cfg.scale = 3.0
print(first, run(jnp.ones((1, 1)), cfg=cfg), "traces", len(TRACES))
