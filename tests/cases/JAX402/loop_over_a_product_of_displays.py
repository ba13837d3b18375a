# A sweep over the product of values written out in the code: each combination compiles once, on purpose.
import functools
import itertools

import jax


@functools.partial(jax.jit, static_argnames=("causal", "block"))
def attention(q, causal, block):
    return q * (2.0 if causal else 1.0) / block


def sweep(q):
    problems = itertools.product((True, False), (64, 128, 256))
    for causal, block in problems:
        attention(q, causal=causal, block=block)
