# `model.apply` of a linen module the project defines is a method flax's base class gives it: a new bound method at
# each read, so `jax.jit(model.apply)` per turn compiles per turn. Jitted once in `__init__`, or an attribute the
# project's class sets itself (a stored function, the same object each time), it is not flagged.
import flax.linen as nn
import jax


class Scale(nn.Module):
    factor: float

    @nn.compact
    def __call__(self, x):
        return x * self.factor


class Holder:
    def __init__(self, fn):
        self.apply = fn


def run(params, batches):
    model = Scale(2.0)
    for x in batches:
        y = jax.jit(model.apply)(params, x)  # expect: JAX401
    return y


class Runner:
    def __init__(self):
        self.model = Scale(2.0)
        self.apply = jax.jit(self.model.apply)

    def run(self, params, batches):
        return [self.apply(params, x) for x in batches]


def run_stored(batches, fn):
    holder = Holder(fn)
    for x in batches:
        y = jax.jit(holder.apply)(x)
    return y
