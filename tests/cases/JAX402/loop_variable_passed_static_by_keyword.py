# The `for` target is passed by keyword to a static argument: a new static value on every turn, one compilation per value.
# The fixture fail_loop_variable_static.py runs this shape: 20 traces for 20 same-shaped calls, where 1 is needed.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="n")
def power(x, n):
    return x**n


def sum_of_powers(x):
    total = jnp.zeros_like(x)
    for n in range(100):
        total = total + power(x, n=n)  # expect: JAX402
    return total
