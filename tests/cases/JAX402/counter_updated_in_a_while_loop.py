# `t` is updated on every turn of the `while` loop and passed static: one compilation per turn.
# jax 0.10.2: `integrate(y, dt=t)` with 20 values of `t` traces 20 times.
import functools

import jax


@functools.partial(jax.jit, static_argnames="dt")
def integrate(y, dt):
    return y + dt * y


def run(y, steps):
    t = 0.0
    while t < steps:
        t += 0.1
        y = integrate(y, dt=t)  # expect: JAX402
    return y
