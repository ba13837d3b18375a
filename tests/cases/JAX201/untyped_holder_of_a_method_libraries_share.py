# `self._optimizer.update`: the project defines one `Optimizer` family with `update`, but `update` (like `init`,
# `apply`, `step`) is also what optax, flax and gym objects offer; an untyped holder of it may be one of those.
# Not guessed.
import jax


class Optimizer:
    def __init__(self, lr):
        self.lr = lr

    def update(self, grads, state):
        return grads * self.lr, state


class Trainer:
    def __init__(self, optimizer):
        self._optimizer = optimizer
        self._update = jax.jit(self._optimizer.update)

    def step(self, grads, state):
        return self._update(grads, state)
