# A jitted method with static `self` reads the mutable state through a helper method: a read all the same.
from functools import partial
import jax

class Vehicle:  # expect: JAX101  # strict: JAX102  (latent: public state the trace reads)
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels

    def doubled(self):
        return 2 * self.num_wheels

    @partial(jax.jit, static_argnums=0)
    def wheels(self, x):
        return x * self.doubled()

car = Vehicle(2)
car.wheels(1.0)
