# A bound method of one long-lived Trainer is equal on every step: the static config does not retrace.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
import dataclasses
from functools import partial
from typing import Callable
import jax, jax.numpy as jnp
TRACES = 0

@dataclasses.dataclass(frozen=True)
class StepCfg:
    loss_fn: Callable
    lr: float = 0.1

@partial(jax.jit, static_argnums=1)
def step(x, cfg: StepCfg):
    global TRACES; TRACES += 1
    return x - cfg.lr * jax.grad(cfg.loss_fn)(x)

class Trainer:
    def __init__(self, target):
        self.target = target
    def loss(self, x):
        return jnp.sum((x - self.target) ** 2)
    def fit(self, x, steps):
        for _ in range(steps):
            x = step(x, StepCfg(self.loss))  # strict: JAX105
        return x

t = Trainer(3.0)
print(t.fit(jnp.zeros(2), 50), "traces", TRACES)
