# The jitted bound method's object comes from a factory function; its rate is assigned after the first step.
# jax 0.10.2 and 0.12.0.1: 0.5, then 0.5 again where 0.9 is right after `opt.lr = 0.1`.
import jax
import jax.numpy as jnp


class SGD:
    def __init__(self, lr: float):
        self.lr = lr

    def update(self, params, grads):
        return params - self.lr * grads


def make_optimizer(name: str, lr: float):
    if name != "sgd":
        raise ValueError(name)
    optimizer = SGD(lr)
    return optimizer


opt = make_optimizer("sgd", 0.5)
step = jax.jit(opt.update)  # expect: JAX201
p, g = jnp.float32(1.0), jnp.float32(1.0)
print(float(step(p, g)))
opt.lr = 0.1
print(float(step(p, g)))
