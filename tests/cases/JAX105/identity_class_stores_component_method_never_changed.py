# A plain Pipeline, static `self`, stores its component's bound method once and is never changed: nothing goes stale.
# jax 0.10.2 and 0.12.0.1: one Pipeline, built once; p(2.0) gives 5.0 on every call, 1 trace. Only the design standard objects.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Doubler:
    def run(self, x):
        return x * 2.0


class Pipeline:  # expect: JAX101  # strict: JAX102  (latent: public state the trace reads)
    def __init__(self, component: Doubler):
        self.component = component
        self.run_part = self.component.run  # strict: JAX105

    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return self.run_part(x) + 1.0


p = Pipeline(Doubler())
for _ in range(3):
    print(float(p(jnp.float32(2.0))))
