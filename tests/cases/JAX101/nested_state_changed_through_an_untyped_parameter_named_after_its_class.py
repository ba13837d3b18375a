# `decay(model, t)` takes its model untyped; `model` is named after the one family of project classes that defines
# `rate`, the method it calls. Its `model._schedule.peak *= 0.5` changes state the static `self` of `Model.rate`
# read when traced: the next call returns the old rate. A parameter named otherwise, or one whose methods several
# unrelated families define, is not guessed.
from functools import partial

import jax


class _Schedule:
    def __init__(self, peak):
        self.peak = peak


class Model:  # expect: JAX101; strict: JAX102
    def __init__(self):
        self._schedule = _Schedule(1.0)  # strict: JAX104

    @partial(jax.jit, static_argnums=0)
    def rate(self, t):
        return t * self._schedule.peak


class Other:  # strict: JAX101, JAX102
    def __init__(self):
        self._schedule = _Schedule(1.0)  # strict: JAX104

    @partial(jax.jit, static_argnums=0)
    def value(self, t):
        return t * self._schedule.peak


class Another:  # strict: JAX101, JAX102
    def __init__(self):
        self._schedule = _Schedule(1.0)  # strict: JAX104

    @partial(jax.jit, static_argnums=0)
    def value(self, t):
        return t + self._schedule.peak


def decay(model, t):
    model.rate(t)
    model._schedule.peak *= 0.5
    return model.rate(t)


def halve(thing, t):
    thing.value(t)
    thing._schedule.peak *= 0.5
    return thing.value(t)


def shrink(other, t):
    other.value(t)
    other._schedule.peak *= 0.5
    return other.value(t)
