# A subclass of a plain project class is no pytree either: its jitted method's `self` cannot be traced.
import jax

class Base:
    def __init__(self, factor):
        self.factor = factor

class Scaler(Base):
    @jax.jit  # expect: JAX202
    def scale(self, y):
        return self.factor * y
