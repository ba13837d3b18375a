# A bound method of one long-lived, never-changed owner at a static position: an identity key, but equal on every call.
# jax 0.10.2 and 0.12.0.1: 4.0 on each of 3 calls, one trace; only the design standard objects to a bound method as a key.
from functools import partial

import jax

TRACES = []


class Scaler:  # expect: JAX101  (latent: public state the trace reads)
    def __init__(self, factor):
        self.factor = factor

    def apply(self, x):
        return x * self.factor


@partial(jax.jit, static_argnums=1)
def step(x, act):
    TRACES.append(1)
    return act(x)


SCALER = Scaler(2.0)


def run(x):
    return float(step(x, SCALER.apply))  # strict: JAX102


print([run(2.0) for _ in range(3)], "traces", len(TRACES))
