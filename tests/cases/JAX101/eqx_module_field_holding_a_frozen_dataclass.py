# An eqx.Module field holding a frozen dataclass, replaced with eqx.tree_at: a new static leaf, compiled again, right result.
# jax 0.10.2 and 0.12.0.1 (equinox 0.13.8): 4.0 6.0 (right) and two traces.
import dataclasses

import equinox as eqx
import jax.numpy as jnp

TRACES = []


@dataclasses.dataclass(frozen=True)
class Schedule:
    rate: float


class Model(eqx.Module):
    weight: jnp.ndarray
    schedule: Schedule


@eqx.filter_jit
def step(model, x):
    TRACES.append(1)
    return x * model.weight * model.schedule.rate


model = Model(jnp.float32(1.0), Schedule(2.0))
first = step(model, 2.0)
model = eqx.tree_at(lambda m: m.schedule, model, Schedule(3.0))
print(first, step(model, 2.0), "traces", len(TRACES))
