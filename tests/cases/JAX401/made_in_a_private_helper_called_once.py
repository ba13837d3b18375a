# A private helper that jits a new `partial` runs once, from the library's own setup: one compile either way.
# jax 0.10.2 and 0.12.0.1: `_table()` runs once at import and traces once.
import functools

import jax
import jax.numpy as jnp


def _scaled(x, factor):
    return x * factor


def _table():
    return jax.jit(functools.partial(_scaled, factor=2.0))(jnp.arange(4.0))


TABLE = _table()
