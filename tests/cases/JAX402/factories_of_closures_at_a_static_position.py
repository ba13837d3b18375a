# A project factory whose NamedTuple holds functions it makes on each call gives an unequal object every call:
# per loop turn at a static position it compiles every turn. One holding module-level functions is equal every
# time, and a class compared by identity is JAX102's.
from functools import partial
from typing import Callable, NamedTuple

import jax


class Optimizer(NamedTuple):
    update: Callable


def sgd_update(params, grads):
    return params - 0.1 * grads


def make_optimizer(lr):
    return Optimizer(lambda params, grads: params - lr * grads)


def make_sgd():
    return Optimizer(sgd_update)


@partial(jax.jit, static_argnames=("opt",))
def step(params, grads, opt):
    return opt.update(params, grads)


def train(params, grads, lr, steps):
    for _ in range(steps):
        params = step(params, grads, opt=make_optimizer(lr))  # expect: JAX402
        params = step(params, grads, opt=make_sgd())
    return params
