# A lambda jitted in __init__ of a class built in a loop compiles once per object built.
# jax 0.10.2: each Evaluator(...) jits a new lambda: a compile per object.
import functools

import jax


def body(v):
    return v * 2


def evaluate(x):
    return jax.jit(functools.partial(body))(x)


class Evaluator:
    def __init__(self, x):
        self.first = jax.jit(lambda v: v + 1)(x)  # expect: JAX401


def main(xs):
    return [Evaluator(x) for x in xs]
