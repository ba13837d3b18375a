# A project decorator wraps the bound method before it is jitted; nothing here assigns `lr`, but users may: latent.
import functools

import jax
import jax.numpy as jnp


def checked(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return jnp.nan_to_num(fn(*args))

    return wrapper


class Trainer:
    def __init__(self, lr: float):
        self.lr = lr
        self._step = jax.jit(checked(self.step))  # expect: JAX201

    def step(self, params, grads):
        return params - self.lr * grads


t = Trainer(0.5)
t._step(jnp.float32(1.0), jnp.float32(1.0))
t = Trainer(0.1)
