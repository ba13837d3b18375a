# State assigned before the bound method is first traced is the state compiled in: nothing goes stale.
# jax 0.10.2: `mul` is False when f is first traced: f(3) is 3, as expected.
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
    c.mul = False
    f = jit(c.calc)
    f(3)
    return f(3)
