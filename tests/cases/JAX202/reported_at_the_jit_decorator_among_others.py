# Among several decorators, the finding is at the `@jax.jit` line, where `self` becomes traced.
import functools

import jax

class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @functools.wraps(print)
    @jax.jit  # expect: JAX202
    def scale(self, y):
        return self.factor * y
