# A typing.Protocol annotation says nothing about the values passed: the NamedTuple given is static-safe.
# jax 0.10.2: it runs, and a second call with an equal value hits the cache (`_cache_size()` stays 1).
from typing import NamedTuple, Protocol
from functools import partial
import jax

class Schedule(Protocol):
    def __call__(self, step: int) -> float: ...

class Constant(NamedTuple):
    value: float

    def __call__(self, step):
        return self.value

@partial(jax.jit, static_argnames="schedule")
def lr(step, schedule: Schedule):
    return schedule(step)

lr(0, schedule=Constant(0.1))
