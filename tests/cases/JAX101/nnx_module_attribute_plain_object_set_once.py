# A plain object held by an nnx.Module, set in __init__ and never changed: static under nnx.jit, but nothing goes stale.
# jax 0.10.2 / flax 0.12.8 and jax 0.12.0.1 / flax 0.12.12: 4.0 on each of 3 calls, one trace.
import jax.numpy as jnp
from flax import nnx

TRACES = []


class Schedule:  # strict: JAX101, JAX102
    def __init__(self, rate):
        self.rate = rate


class Model(nnx.Module):
    def __init__(self, rate):
        self.weight = nnx.Param(jnp.float32(1.0))
        self.schedule = Schedule(rate)


@nnx.jit
def step(model, x):
    TRACES.append(1)
    return x * model.weight[...] * model.schedule.rate


model = Model(2.0)
print([float(step(model, 2.0)) for _ in range(3)], "traces", len(TRACES))
