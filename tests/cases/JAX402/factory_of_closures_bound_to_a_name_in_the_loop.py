# `opt = make_optimizer(lr)` inside the loop, then `step(..., opt=opt)`: a new NamedTuple of new closures every
# turn, so every turn compiles. Made once before the loop, or bound to two different values, it is not flagged.
from functools import partial
from typing import Callable, NamedTuple

import jax


class Optimizer(NamedTuple):
    update: Callable


def make_optimizer(lr):
    return Optimizer(lambda params, grads: params - lr * grads)


@partial(jax.jit, static_argnames=("opt",))
def step(params, grads, opt):
    return opt.update(params, grads)


def train(params, grads, lr, steps):
    for _ in range(steps):
        opt = make_optimizer(lr)
        params = step(params, grads, opt=opt)  # expect: JAX402
    return params


def train_once(params, grads, lr, steps):
    opt = make_optimizer(lr)
    for _ in range(steps):
        params = step(params, grads, opt=opt)
    return params


def train_either(params, grads, lr, steps, fast):
    opt = make_optimizer(lr)
    if fast:
        opt = make_optimizer(2 * lr)
    for _ in range(steps):
        params = step(params, grads, opt=opt)
    return params
