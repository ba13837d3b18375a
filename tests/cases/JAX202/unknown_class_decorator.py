# A class decorator jaxcheck cannot see may register the class as a pytree: the class is not judged.
import jax
from somelib import register

@register
class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @jax.jit
    def scale(self, y):
        return self.factor * y
