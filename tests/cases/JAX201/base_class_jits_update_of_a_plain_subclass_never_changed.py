# A base class jits `self.update`; the subclass is a plain class whose attribute nothing assigns after construction.
# A plain class's attributes are not declared fields: only a write (or a setter) is evidence.
import jax


class Optimizer:
    def __init__(self):
        self.update = jax.jit(self.update)

    def update(self, params, grads):
        raise NotImplementedError


class SGD(Optimizer):
    def __init__(self, learning_rate: float):
        self.learning_rate = learning_rate
        super().__init__()

    def update(self, params, grads):
        return params - self.learning_rate * grads
