# `jax.jit(self.env.step)` on every step of a public wrapper: `self.env` holds an object built by a call, and each access to `.step` is a new bound method with an empty cache.
# jax 0.10.2 and 0.12.0.1: every call of `BraxEnv.step` traces and compiles the physics step again.
import functools

import jax
from brax import envs


def _make_loss(scale):
    def loss(x):
        return x * scale

    return loss


class BraxEnv:
    def __init__(self, name, scale):
        self.env = envs.create(name)
        self.loss = _make_loss(scale)  # a function: the same object on every access
        self.scaled = functools.partial(jax.numpy.multiply, scale)

    def step(self, state, action):
        state = jax.jit(self.env.step)(state, action)  # expect: JAX401
        return jax.jit(self.loss)(state), jax.jit(self.scaled)(state)
