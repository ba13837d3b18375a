# filter_jit hashes the function and equal bound methods find the old cache: made per call, it is stale, not a recompile.
# equinox 0.13.8: filter_jit hashes the function, and two bound methods of one object are
# equal: the new filter_jit finds the old cache, 4.0 where 6.0 is right. Not a recompile.
import equinox as eqx


class Plain:
    def __init__(self, w):
        self.w = w

    def apply(self, x):
        return x * self.w

    def __call__(self, x):
        return eqx.filter_jit(self.apply)(x)  # expect: JAX201

p = Plain(2.0)
p.w = 3.0
