# `problem()` writes `self.pm`, then calls `self.constraints()`, which jits a closure reading it: each run writes first and makes a new jitted function.
import jax


class Optimizer:
    def __init__(self):
        self.pm = None

    def constraints(self, params):
        def fun(x):
            return x * self.pm

        fun_jit = jax.jit(fun)
        fun_jit(params)
        return fun_jit

    def problem(self, model, params):
        self.pm = model
        return self.constraints(params)
