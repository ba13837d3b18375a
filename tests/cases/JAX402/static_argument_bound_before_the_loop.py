# The static value is read from the config once, before the loop: it does not change from turn to turn.
import functools

import jax


@functools.partial(jax.jit, static_argnames="n")
def power(x, n):
    return x**n


class Config:
    def __init__(self, n):
        self.n = n


def run(xs, cfg):
    n = cfg.n
    out = []
    for x in xs:
        out.append(power(x, n=n))
    return out
