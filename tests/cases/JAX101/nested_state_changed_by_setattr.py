# `setattr(model._schedule, "peak", value)` changes state the static `self` of `Model.rate` read when traced, as
# `model._schedule.peak = value` would. A setattr of an attribute the traced code never reads changes nothing it
# compiled.
from functools import partial

import jax


class _Schedule:
    def __init__(self, peak):
        self.peak = peak
        self.label = ""


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
    def rate(self, t):
        return t * self._schedule.peak


def decay(model: Model, t, value):
    model.rate(t)
    setattr(model._schedule, "peak", value)
    return model.rate(t)


def relabel(other: Other, t):
    other.rate(t)
    setattr(other._schedule, "label", "decayed")
    return other.rate(t)
