# A function-scoped fixture builds a new, equal `Sampler` for each test that takes it; a module-scoped one (`world`) builds one for all.
# jax 0.10.2 and 0.12.0.1: each test that takes `sampler` compiles `Sampler.draw` again.
import functools

import jax
import pytest


class Sampler:  # expect: JAX102; strict: JAX101
    def __init__(self, batch):
        self._batch = batch

    @functools.partial(jax.jit, static_argnums=0)
    def draw(self, key):
        return jax.random.uniform(key, (self._batch,))


class World:  # strict: JAX101, JAX102
    def __init__(self, size):
        self._size = size

    @functools.partial(jax.jit, static_argnums=0)
    def cells(self, x):
        return x * self._size


@pytest.fixture
def sampler():
    return Sampler(8)


@pytest.fixture(scope="module")
def world():
    return World(3)


def test_shape(sampler, world):
    assert sampler.draw(jax.random.PRNGKey(0)).shape == (8,)
    assert world.cells(2) == 6


def test_range(sampler, world):
    assert (sampler.draw(jax.random.PRNGKey(1)) < 1).all()
    assert world.cells(1) == 3
