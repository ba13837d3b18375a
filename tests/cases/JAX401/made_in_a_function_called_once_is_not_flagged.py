# A jit made in a function that runs once compiles once: jitting it elsewhere would compile just as much.
# jax 0.10.2: one call, one compile: jitting once elsewhere would compile just as much.
import functools

import jax


def body(v):
    return v * 2


def evaluate(x):
    return jax.jit(functools.partial(body))(x)


class Evaluator:
    def __init__(self, x):
        self.first = jax.jit(lambda v: v + 1)(x)


def main(xs):
    return evaluate(xs[0]), Evaluator(xs[0])
