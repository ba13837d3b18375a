# A mutable class passed only at traced positions (or as a keyword that is not static) is no static use.
import jax

class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels

    def add_wheel(self):
        self.num_wheels += 1

@jax.jit(static_argnums=1)
def f(v: Vehicle, n, w=None):
    return v.num_wheels * n

car = Vehicle(2)
f(car, 3)
f(Vehicle(2), 3, w=car)
car.num_wheels = 4
