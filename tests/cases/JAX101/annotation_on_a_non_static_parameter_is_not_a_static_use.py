# An annotation names the class only at a traced parameter: no value of it reaches a static position.
import jax
from typing import Optional

class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels

@jax.jit(static_argnums=1)
def f(v: Optional[Vehicle], n: int):
    return v.num_wheels * n
