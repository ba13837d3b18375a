# A base class jits `self.update` of a frozen dataclass subclass: its public field cannot be assigned, a new object has a new jit.
import dataclasses

import jax


@dataclasses.dataclass(frozen=True)
class Optimizer:
    def __post_init__(self):
        object.__setattr__(self, "update", jax.jit(self.update))

    def update(self, params, grads):
        raise NotImplementedError


@dataclasses.dataclass(frozen=True)
class SGD(Optimizer):
    learning_rate: float = 0.5

    def update(self, params, grads):
        return params - self.learning_rate * grads
