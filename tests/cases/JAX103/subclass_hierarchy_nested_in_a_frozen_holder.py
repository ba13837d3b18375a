# Nested in a static holder, a value's type is not keyed by JAX: an `__eq__` without it confuses subclasses.
# The shape of fail_missing_type: JAX keys the type of a top-level static
# argument but not of a value nested inside it, so this one is really stale.
import dataclasses
import functools

import jax

class Shape:
    def __init__(self, n):
        object.__setattr__(self, "n", n)

    def __setattr__(self, name, value):
        raise AttributeError("immutable")

    def __delattr__(self, name):
        raise AttributeError("immutable")

    def __hash__(self):  # expect: JAX103
        return hash(self.n)

    def __eq__(self, other):  # expect: JAX103
        return isinstance(other, Shape) and other.n == self.n

    def area(self, x):
        return x * self.n

class Square(Shape):
    def area(self, x):
        return x * self.n * self.n

@dataclasses.dataclass(frozen=True)
class Holder:
    shape: Shape

@functools.partial(jax.jit, static_argnums=1)
def measure(x, holder: Holder):
    return holder.shape.area(x)

measure(1.0, Holder(Shape(3)))
measure(1.0, Holder(Square(3)))
