# The seed's jitted bound method held in a local of a function goes stale the same way.
# jax 0.10.2: f(3) gives 6, then 6 again after `c.mul = False`, the jitted bound method being a local of main().
from jax import jit


class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

def main():
    c = CustomClass(2, True)
    f = jit(c.calc)  # expect: JAX201
    f(3)
    c.mul = False
    return f(3)
