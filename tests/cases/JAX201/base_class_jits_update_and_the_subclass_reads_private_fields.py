# A base class jits `self.update`; the subclass's update reads only private fields, which users are not invited to set.
import dataclasses

import jax


@dataclasses.dataclass
class Optimizer:
    def __post_init__(self):
        self.update = jax.jit(self.update)

    def update(self, params, grads):
        raise NotImplementedError


@dataclasses.dataclass
class SGD(Optimizer):
    _learning_rate: float = 0.5

    def update(self, params, grads):
        return params - self._learning_rate * grads
