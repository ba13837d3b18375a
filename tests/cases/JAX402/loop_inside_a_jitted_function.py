# A loop in a jitted function body runs only while JAX traces it, once per compilation of `unrolled`: the inner calls are inlined.
import functools

import jax


@functools.partial(jax.jit, static_argnames="n")
def power(x, n):
    return x**n


@jax.jit
def unrolled(x):
    total = x * 0
    for n in range(20):
        total = total + power(x, n=n)
    return total
