# A jitted staticmethod has no `self` to trace: its first parameter is an ordinary argument.
import jax

class Ops:
    @staticmethod
    @jax.jit
    def scale(x, y):
        return x * y
