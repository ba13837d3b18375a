# `self.cost_fn` holds a bound method, or a module function the caller passes instead: what it holds when passed
# static is not known, so nothing is guessed.
from functools import partial

import jax


class BaseModel:
    def __init__(self, l2):
        self.l2 = l2

    def cost(self, x):
        return x + self.l2


@partial(jax.jit, static_argnames=("cost_fn",))
def _update(x, cost_fn):
    return cost_fn(x)


class Algorithm:
    def __init__(self, model, cost_fn=None):
        self.cost_fn = model.cost
        if cost_fn is not None:
            self.cost_fn = cost_fn

    def update(self, x):
        return _update(x, cost_fn=self.cost_fn)
