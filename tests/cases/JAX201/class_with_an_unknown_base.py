# A base jaxcheck cannot see may make the class a frozen pytree, so its jitted bound method is not judged.
import somelib

from jax import jit


class CustomClass(somelib.Base):
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

def main():
    c = CustomClass(2, True)
    f = jit(c.calc)
    f(3)
    c.mul = False
    return f(3)
