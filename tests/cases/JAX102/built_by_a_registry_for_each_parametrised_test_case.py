# A registry's `make("grid", ...)` builds a new, equal `Grid` for each parametrised case: `step`'s cache is keyed on `self`, so every case compiles again.
# jax 0.10.2 and 0.12.0.1: 3 cases, 3 compilations of `Grid.step` where 1 is needed; `Line` is never built by a test.
import functools

import jax
import pytest


class Grid:  # expect: JAX102; strict: JAX101
    def __init__(self, size):
        self._size = size

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x * self._size


class Line:  # strict: JAX101, JAX102
    def __init__(self, size):
        self._size = size

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x + self._size


def make(env_id, **kwargs):
    if env_id == "grid":
        env = Grid(**kwargs)
    elif env_id == "line":
        env = Line(**kwargs)
    else:
        raise ValueError(env_id)
    return env


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_step(seed):
    env = make("grid", size=4)
    assert env.step(seed) == seed * 4
