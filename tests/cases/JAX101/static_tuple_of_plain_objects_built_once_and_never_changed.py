# A static tuple of plain objects built once and reused unchanged: identity keys, but nothing goes stale or recompiles.
# jax 0.10.2 and 0.12.0.1: 6.0 on each of 3 calls, one trace; only the design standard objects to the class.
from functools import partial

import jax

TRACES = []


class Layer:  # strict: JAX101, JAX102
    def __init__(self, k):
        self.k = k


@partial(jax.jit, static_argnames="layers")
def apply(x, layers):
    TRACES.append(1)
    for layer in layers:
        x = x * layer.k
    return x


LAYERS = (Layer(2.0), Layer(3.0))
print([float(apply(1.0, layers=LAYERS)) for _ in range(3)], "traces", len(TRACES))
