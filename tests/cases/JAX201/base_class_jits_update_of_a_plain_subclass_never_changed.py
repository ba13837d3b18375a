# A base class jits `self.update`; the subclass is a plain class whose attribute nothing assigns after construction.
# Nothing in the project changes `learning_rate`, but it is public state of a class users build: latent.
import jax


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
