# A jitted classmethod is given the class, not an instance: there is no `self` to trace.
import jax

class Ops:
    factor = 2.0

    @classmethod
    @jax.jit
    def scale(cls, y):
        return y
