# `self` of a method whose argument 0 is not static is no static use (but traced, so JAX202).
# JAX raises on the call: `self` is traced.
from functools import partial
import jax

class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels

    @partial(jax.jit, static_argnums=1)  # expect: JAX202
    def times(self, n):
        return self.num_wheels * n

Vehicle(2).times(3)
