# A base class jits `self.update`; the subclass reading a public field is private to the package: users do not build it.
import dataclasses

import jax


@dataclasses.dataclass
class Optimizer:
    def __post_init__(self):
        self.update = jax.jit(self.update)

    def update(self, params, grads):
        raise NotImplementedError


@dataclasses.dataclass
class _SGD(Optimizer):
    learning_rate: float = 0.5

    def update(self, params, grads):
        return params - self.learning_rate * grads
