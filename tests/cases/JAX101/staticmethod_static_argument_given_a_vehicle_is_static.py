# On a staticmethod static argument 0 is the first argument, not `self`: here, a Vehicle.
from functools import partial
import jax

class Vehicle:  # expect: JAX101  # strict: JAX102  (latent: public state the trace reads)
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels

class Tools:
    @staticmethod
    @partial(jax.jit, static_argnums=0)
    def wheels(v):
        return v.num_wheels

Tools.wheels(Vehicle(2))
