# A module-level loop passes its counter to a static argument: the script compiles once per value of the counter.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="n")
def power(x, n):
    return x**n


x = jnp.full(3, 0.5)
for n in range(50):
    print(power(x, n=n))  # expect: JAX402
