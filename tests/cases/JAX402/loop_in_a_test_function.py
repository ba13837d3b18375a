# A test may compile once per value it checks: a `test_` function sweeping a static argument is exempt.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="n")
def power(x, n):
    return x**n


def test_powers():
    x = jnp.full(3, 2.0)
    for n in range(20):
        assert (power(x, n=n) == 2.0**n).all()
