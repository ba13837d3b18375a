# A factory that may return an object of a class jaxcheck does not know says nothing of the jitted method's object.
import jax
import optax


class SGD:
    def __init__(self, lr: float):
        self.lr = lr

    def update(self, params, grads):
        return params - self.lr * grads


def make_optimizer(name: str, lr: float):
    if name == "sgd":
        return SGD(lr)
    return optax.adam(lr)


opt = make_optimizer("adam", 0.5)
step = jax.jit(opt.update)
opt.lr = 0.1
