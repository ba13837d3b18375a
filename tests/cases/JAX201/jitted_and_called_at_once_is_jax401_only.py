# A bound method jitted and called at once is never stale (no JAX201), only compiled on every call (JAX401).
# jax 0.10.2: a new jitted function per call is never stale, but compiles every time (JAX401).
import jax


class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

def main(c: CustomClass):
    return jax.jit(c.calc)(3)  # expect: JAX401


c = CustomClass(2, True)
for _ in range(2):
    main(c)
c.mul = False
main(c)
