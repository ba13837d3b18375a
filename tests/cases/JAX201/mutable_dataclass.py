# A dataclass that is not frozen can be assigned like any object, so its jitted bound method goes stale.
# jax 0.10.2: a dataclass that is not frozen is assigned like any object: 6, then 6.
import dataclasses

from jax import jit


@dataclasses.dataclass
class CustomClass:
    x: int
    mul: bool

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

c = CustomClass(2, True)
f = jit(c.calc)  # expect: JAX201
f(3)
c.mul = False
f(3)
