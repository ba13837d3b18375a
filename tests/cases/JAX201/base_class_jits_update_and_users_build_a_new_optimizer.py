# A base class jits its own bound `update` in __init__; to change the rate the user builds a new optimizer, never assigning its rate.
# jax 0.10.2 and 0.12.0.1: each Optimizer has its own jitted update traced for its own lr: 0.5, then 0.9 from Optimizer(0.1).
import jax
import jax.numpy as jnp


class Optimizer:
    def __init__(self, lr: float):
        self._lr = lr
        self.update = jax.jit(self.update)

    def update(self, params, grads):
        return params - self._lr * grads


p, g = jnp.float32(1.0), jnp.float32(1.0)
opt = Optimizer(0.5)
print(float(opt.update(p, g)))
opt = Optimizer(0.1)
print(float(opt.update(p, g)))
