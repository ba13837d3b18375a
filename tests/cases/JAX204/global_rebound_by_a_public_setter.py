# A public setter and a public context manager rebind module globals the jitted code reads: a user who calls them after the first trace keeps the old value; a registry a public function adds to is read by no earlier trace, and a setter the module runs once at import is not left to users.
# jax 0.10.2 and 0.12.0.1: `set_radius(5)` after `view(x)` was traced leaves `view` multiplying by 3.
import contextlib

import jax
import jax.numpy as jnp

RADIUS = 3
_SIZE = None
REGISTRY = {}
SCALE = 1.0


def set_radius(r):
    global RADIUS
    RADIUS = r  # expect: JAX204


@contextlib.contextmanager
def fixed_size(n):
    global _SIZE
    old = _SIZE
    _SIZE = n  # expect: JAX204
    try:
        yield
    finally:
        _SIZE = old


def register(name, fn):
    REGISTRY[name] = fn


def configure(scale):
    # Called by the module itself, once, at import: before any trace, not left to users.
    global SCALE
    SCALE = scale


configure(2.0)


def _draw(x):
    return jnp.zeros(_SIZE or x.shape[0]) + x.sum()


@jax.jit
def view(x):
    return x * RADIUS * SCALE


@jax.jit
def render(x):
    return _draw(x) + len(REGISTRY)
