# A static `self` whose class has a setter is reported at the assignment that changes it.
from functools import partial
import jax

class Vehicle:  # strict: JAX102
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels

    def set_wheels(self, count):
        self.num_wheels = count  # expect: JAX101

    @partial(jax.jit, static_argnums=0)
    def wheels(self, x):
        return x * self.num_wheels
