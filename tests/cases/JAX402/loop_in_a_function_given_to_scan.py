# The body given to `lax.scan` is traced once; its Python loop runs during that trace, not on every scan step.
import functools

import jax


@functools.partial(jax.jit, static_argnames="n")
def power(x, n):
    return x**n


def body(carry, x):
    for n in range(12):
        carry = carry + power(x, n=n)
    return carry, carry


def run(xs):
    return jax.lax.scan(body, 0.0, xs)
