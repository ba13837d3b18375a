# A lambda jitted in __init__ of a class built in a loop compiles once per object built.
# jax 0.10.2: each Evaluator(...) jits a new lambda: a compile per object.
import jax


class Evaluator:
    def __init__(self, x):
        self.first = jax.jit(lambda v: v + 1)(x)  # expect: JAX401


def main(xs):
    return [Evaluator(x) for x in xs]
