# Under `eqx.filter_jit` every non-array argument is static: a Python int counter from `range` compiles once per value.
# The fixture fail_filter_jit_loop_int.py runs this shape: 20 traces for 20 same-shaped calls, where 1 is needed.
import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def decay(x, step):
    return x * 0.9**step


def schedule(x, steps):
    out = []
    for step in range(steps):
        out.append(decay(x, step))  # expect: JAX402
    return out


def first(xs):
    return jnp.stack(xs)[0]
