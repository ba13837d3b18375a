# A new optax transformation at a static position: per loop turn, or per call of a method a loop runs, each is a
# new NamedTuple of closures and compiles again. Built once (before the loop, in `__init__`, in code that runs
# once) it is one key.
from functools import partial

import jax
import optax


@partial(jax.jit, static_argnames=("opt",))
def update(params, grads, state, opt):
    updates, state = opt.update(grads, state, params)
    return optax.apply_updates(params, updates), state


class Trainer:
    def __init__(self, lr):
        self.lr = lr
        self.opt = optax.adam(lr)

    def step(self, params, grads, state):
        return update(params, grads, state, opt=optax.adam(self.lr))  # expect: JAX402

    def step_once_built(self, params, grads, state):
        return update(params, grads, state, opt=self.opt)


def train(trainer, params, grads, state, steps):
    for _ in range(steps):
        params, state = trainer.step(params, grads, state)
        params, state = trainer.step_once_built(params, grads, state)
        params, state = update(params, grads, state, opt=optax.chain(optax.clip(1.0), optax.sgd(0.1)))  # expect: JAX402
    return params


def main(params, grads):
    opt = optax.sgd(0.1)
    return update(params, grads, opt.init(params), opt=optax.sgd(0.1))
