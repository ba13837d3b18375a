# A function-scoped fixture builds its `Sampler` through a dict of classes keyed by name (`make("uniform")`): a new, equal one for each test that takes it.
# jax 0.10.2 and 0.12.0.1: each test that takes `sampler` compiles `Sampler.draw` again; `Normal` is never built by a test.
import functools

import jax
import pytest


class Sampler:  # expect: JAX102; strict: JAX101
    def __init__(self, batch):
        self._batch = batch

    @functools.partial(jax.jit, static_argnums=0)
    def draw(self, key):
        return jax.random.uniform(key, (self._batch,))


class Normal:  # strict: JAX101, JAX102
    def __init__(self, batch):
        self._batch = batch

    @functools.partial(jax.jit, static_argnums=0)
    def draw(self, key):
        return jax.random.normal(key, (self._batch,))


SAMPLERS = {"uniform": Sampler, "normal": Normal}


def make(name, **kwargs):
    return SAMPLERS[name](**kwargs)


@pytest.fixture
def sampler():
    return make("uniform", batch=8)


def test_shape(sampler):
    assert sampler.draw(jax.random.PRNGKey(0)).shape == (8,)


def test_range(sampler):
    assert (sampler.draw(jax.random.PRNGKey(1)) < 1).all()
