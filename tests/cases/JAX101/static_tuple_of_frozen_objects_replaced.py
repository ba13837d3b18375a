# A static tuple of frozen dataclasses, one replaced by a changed copy: a new key, compiled again, right result.
# jax 0.10.2 and 0.12.0.1: 6.0 10.0 (right) and two traces.
import dataclasses
from functools import partial

import jax

TRACES = []


@dataclasses.dataclass(frozen=True)
class Layer:
    k: float


@partial(jax.jit, static_argnames="layers")
def apply(x, layers):
    TRACES.append(1)
    for layer in layers:
        x = x * layer.k
    return x


inner, outer = Layer(2.0), Layer(3.0)
first = apply(1.0, layers=(inner, outer))
outer = dataclasses.replace(outer, k=5.0)
print(first, apply(1.0, layers=(inner, outer)), "traces", len(TRACES))
