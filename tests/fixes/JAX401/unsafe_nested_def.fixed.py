"""A @jax.jit nested def, defined anew on every call of outer(): moved to module level."""
import jax
import jax.numpy as jnp


@jax.jit
def inner(v):
    # the body is kept as it is
    return jnp.sin(v) * 2.0


def outer(x):
    return inner(x)


def run():
    return [outer(jnp.ones(3)) for _ in range(4)]
