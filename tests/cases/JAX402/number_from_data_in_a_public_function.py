# `fit` computes a static weight from the data's initial loss (`float(...)` of a jnp value): each call compiles again.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="weight")
def step(x, weight):
    return x - weight * jnp.sign(x)


def fit(x, target_weight=0.1, steps=100):
    loss0 = jnp.sum(x**2)
    scale = jnp.where(loss0 > 0, jnp.abs(loss0), 1.0)
    weight = float(target_weight * scale)
    for _ in range(steps):
        x = step(x, weight=weight)  # expect: JAX402
    return x
