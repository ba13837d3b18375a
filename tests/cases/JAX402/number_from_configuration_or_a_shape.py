# Numbers read off a shape or computed from configuration only take the same value at every call: one compilation.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("n", "weight"))
def step(x, n, weight):
    return x[:n] * weight


def fit(x, cfg, steps=100):
    n = int(x.shape[0])
    size = int(np.prod(x.shape))
    weight = float(cfg.weight * 2.0)
    width = int(jnp.ceil(cfg.width / 2))
    for _ in range(steps):
        x = step(x, n=n, weight=weight)
        x = step(x, n=size, weight=float(jnp.sqrt(2.0)))
        x = step(x, n=width, weight=weight)
    return x


def _calibrate_once(x):
    # a private helper the project never calls again and again: it runs once
    return float(jnp.abs(jnp.mean(x)))


def main():
    x = jnp.ones(8)
    weight = float(jnp.abs(jnp.mean(x)))
    return step(x, n=4, weight=weight)


if __name__ == "__main__":
    main()
