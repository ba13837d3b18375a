# `k` is bound in the loop body from the loop variable: passing it to a static argument compiles once per turn.
# jax 0.10.2 and 0.12.0.1: `curve(x, 12)` leaves 12 compiled programs in `top_k_sum`'s cache.
import functools

import jax


@functools.partial(jax.jit, static_argnames="k")
def top_k_sum(x, k):
    return jax.lax.top_k(x, k)[0].sum()


def curve(x, steps):
    out = []
    for n in range(steps):
        k = n + 1
        out.append(top_k_sum(x, k=k))  # expect: JAX402
    return out
