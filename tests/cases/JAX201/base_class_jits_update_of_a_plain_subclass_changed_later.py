# A base class jits `self.update`; a plain subclass's `update` reads `learning_rate`, which a schedule assigns after the first step.
# jax 0.10.2 and 0.12.0.1: the bound method of the subclass is traced once: 0.5, then 0.5 where 0.9 is right.
import jax
import jax.numpy as jnp


class Optimizer:
    def __init__(self):
        self.update = jax.jit(self.update)  # expect: JAX201

    def update(self, params, grads):
        raise NotImplementedError


class SGD(Optimizer):
    def __init__(self, learning_rate: float):
        self.learning_rate = learning_rate
        super().__init__()

    def update(self, params, grads):
        return params - self.learning_rate * grads


opt = SGD(0.5)
p, g = jnp.float32(1.0), jnp.float32(1.0)
print(float(opt.update(p, g)))
opt.learning_rate = 0.1
print(float(opt.update(p, g)))
