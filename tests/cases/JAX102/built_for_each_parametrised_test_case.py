# A test builds a new, equal `Env` for each parametrised case and steps it: `step`'s cache is the class's, keyed on `self`, so every case compiles again.
# jax 0.10.2 and 0.12.0.1: 4 cases, 4 compilations of `Env.step` where 1 is needed.
import functools

import jax
import pytest


class Env:  # expect: JAX102; strict: JAX101
    def __init__(self, size):
        self._size = size

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x * self._size


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_step(seed):
    env = Env(4)
    assert env.step(seed) == seed * 4


class Grid:  # strict: JAX101, JAX102
    def __init__(self, agents):
        self._agents = agents

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x * self._agents


@pytest.mark.parametrize("agents", [1, 4, 9])
def test_rollout(agents):
    # Built from the case's own parameter: a different grid per case, compiled once each anyway.
    grid = Grid(agents)
    assert grid.step(1) == agents
