# A bound method jitted and kept at module level compiles in `self`'s state: stale once `c.mul` is assigned.
# jax 0.10.2: f(3) gives 6, then 6 again after `c.mul = False` (3 expected).
from jax import jit


class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

c = CustomClass(2, True)
f = jit(c.calc)  # expect: JAX201
f(3)
c.mul = False
f(3)
