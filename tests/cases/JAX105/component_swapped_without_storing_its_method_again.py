# Swapping `p.component` leaves the stored `run_part` bound to the old component, with or without jit: no cache at fault.
# jax 0.10.2 and 0.12.0.1: p(2.0) gives 5.0 before and after `p.component = Tripler()`, and so does the same method run eagerly.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Doubler:
    def run(self, x):
        return x * 2.0


@dataclasses.dataclass(frozen=True)
class Tripler:
    def run(self, x):
        return x * 3.0


class Pipeline:  # expect: JAX101  # strict: JAX102  (latent: public state the trace reads)
    def __init__(self, component: Doubler):
        self.component = component
        self.run_part = self.component.run  # strict: JAX105

    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return self.run_part(x) + 1.0


p = Pipeline(Doubler())
print(float(p(jnp.float32(2.0))))
p.component = Tripler()
print(float(p(jnp.float32(2.0))), float(Pipeline.__call__.__wrapped__(p, jnp.float32(2.0))))
