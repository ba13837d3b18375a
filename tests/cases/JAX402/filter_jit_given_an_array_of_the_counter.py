# `jnp.asarray(step)` is an array, which `eqx.filter_jit` traces: every value of the counter runs the same compiled program.
import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def decay(x, step):
    return x * 0.9**step


def schedule(x, steps):
    out = []
    for step in range(steps):
        out.append(decay(x, jnp.asarray(step)))
    return out
