# The base `problem()` writes `self.pm`, but the subclass replaces `problem()` and writes it before it jits: the base write never runs on its objects.
import jax


class Optimizer:
    def __init__(self):
        self.pm = None

    def problem(self, model, params):
        self.pm = model
        return params


class GradientFree(Optimizer):
    def problem(self, model, params):
        self.pm = model

        def loss_fn(x):
            return x * self.pm

        loss_jit = jax.jit(loss_fn)
        loss_jit(params)
        return loss_jit
