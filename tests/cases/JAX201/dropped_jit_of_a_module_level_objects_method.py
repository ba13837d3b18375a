# A jitted bound method that is dropped unused is never stale (no JAX201), only made for nothing per call (JAX401).
# jax 0.10.2: the dropped jitted function is never called, so never stale: warm() gives 6, then 3.
import jax


class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

c = CustomClass(2, True)


def warm():
    jax.jit(c.calc)  # expect: JAX401
    return c.calc(3)


for _ in range(2):
    warm()
c.mul = False
warm()
