# Static `self` whose traced code reads only private state, or only its arguments, gives users nothing to change.
# jax 0.10.2 and 0.12.0.1: `Trainer.fit` changes `self.history` every step; the jitted `update` never reads it.
from functools import partial

import jax


class Trainer:  # strict: JAX102
    def __init__(self, rate):
        self.rate = rate
        self.history = []  # strict: JAX104

    @partial(jax.jit, static_argnums=0)
    def update(self, params, grads):
        return params - 0.1 * grads

    def fit(self, params, grads):
        for _ in range(3):
            params = self.update(params, grads)
            self.history.append(params)
        return params


class Scaler:  # strict: JAX101, JAX102
    def __init__(self, scale):
        self._scale = scale

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return x * self._scale


class _Hidden:  # strict: JAX101, JAX102
    def __init__(self, scale):
        self.scale = scale

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return x * self.scale
