# A mutable class passed only at traced positions is no static use.
import jax

class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels

@jax.jit(static_argnames="n")
def f(v, n):
    return v.num_wheels * n

car = Vehicle(2)
f(car, n=3)
f(Vehicle(4), 3)
