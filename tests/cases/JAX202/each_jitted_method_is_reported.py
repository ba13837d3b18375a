# Every jitted method of a plain class traces its `self`, so each is reported; a plain method is not.
import jax

class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @jax.jit  # expect: JAX202
    def scale(self, y):
        return self.factor * y

    def plain(self, y):
        return y

    @jax.jit  # expect: JAX202
    def shift(self, y):
        return self.factor + y
