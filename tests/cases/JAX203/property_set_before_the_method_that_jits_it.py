# `self.pm = ...` runs the `pm` setter, which writes `self._pm`, before `problem()` makes and jits a closure reading it: each run sets, then traces the new value (the base class's `problem()`, which also sets it, never runs on the subclass's objects).
import jax


class Optimizer:
    def __init__(self):
        self._pm = None

    @property
    def pm(self):
        return self._pm

    @pm.setter
    def pm(self, value):
        self._pm = value

    def loss(self, x):
        return x * self.pm

    def problem(self, model, params):
        self.pm = model  # replaced by the subclass: never runs on its objects
        return params


class GradientFree(Optimizer):
    def problem(self, model, params):
        self.pm = model

        def loss_fn(x):
            return self.loss(x)

        loss_jit = jax.jit(loss_fn)
        loss_jit(params)
        return loss_jit
