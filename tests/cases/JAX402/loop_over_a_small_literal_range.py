# `range(3)` with literal bounds gives a static argument three known values: a few compilations, each needed, none repeated.
import functools

import jax


@functools.partial(jax.jit, static_argnums=(1,))
def moment(x, order):
    return (x**order).mean()


def moments(x):
    return [moment(x, k) for k in range(3)] + [moment(x, k) for k in range(3, 5)]


def moments_in_a_loop(x):
    out = []
    for k in range(3):
        out.append(moment(x, k))
    return out
