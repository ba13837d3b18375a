# `self.cost_fn = model.cost` stores the bound method of the model the caller hands in, untyped; `model` is named
# after the one family of project classes that defines `cost`. Passed static, it hashes by the model's identity.
# jax 0.10.2 and 0.12.0.1: after a user's `model.l2 = 1.0`, `algorithm.update(x)` still adds 0.0 (the old value).
from functools import partial

import jax


class BaseModel:  # expect: JAX101
    def __init__(self, l2):
        self.l2 = l2

    def cost(self, x):
        return x + self.l2


@partial(jax.jit, static_argnames=("cost_fn",))
def _update(x, cost_fn):
    return cost_fn(x)


class Algorithm:
    def __init__(self, model):
        self.cost_fn = model.cost

    def update(self, x):
        return _update(x, cost_fn=self.cost_fn)  # strict: JAX102
