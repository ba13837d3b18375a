# Factories that return a jit whose callers keep it (on `self`, at module level, in a cache, returned on), cached factories, or that users call themselves: compiled once per kept function.
# jax 0.10.2: a kept jitted function finds its cache again on every later call.
import functools

import jax
import jax.numpy as jnp


def _make_step(loss):
    return jax.jit(jax.value_and_grad(loss))


def _make_apply(fn):
    apply = jax.jit(jax.vmap(fn))

    def wrapper(x):
        return apply(x)

    return wrapper


def _make_scaled(fn):
    return jax.jit(jax.grad(fn))


def _make_cached(fn):
    return jax.jit(jax.vmap(fn))


def make_update(fn):
    return jax.jit(jax.grad(fn))  # public: its users keep what it returns


BATCHED = _make_apply(jnp.sin)
_CACHE = []


class Model:
    def compile(self, loss):
        self._step = _make_step(loss)

    def step(self, x):
        return self._step(x)


def make_apply(fn):
    return _make_apply(fn)  # handed on to the caller, who keeps it


def remember(fn):
    _CACHE.append(_make_cached(fn))


def grads(fn, xs):
    scaled = _make_scaled(fn)
    holder = {"fn": scaled}
    return holder


@functools.lru_cache(maxsize=None)
def _step_for(loss):
    return jax.jit(jax.value_and_grad(loss))


def fit(loss, x0):
    # `_step_for` keeps one jit per loss: every call of `fit` with the same loss finds it again.
    step = _step_for(loss)
    return step(x0)
