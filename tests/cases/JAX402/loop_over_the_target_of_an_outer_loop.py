# The inner loop runs over the outer loop's target: its values change from batch to batch, so each new `n`
# compiles `power` again.
import functools

import jax


@functools.partial(jax.jit, static_argnames="n")
def power(x, n):
    return x**n


def run(x, batches):
    for batch in batches:
        for n in batch:
            x = power(x, n=n)  # expect: JAX402
    return x
