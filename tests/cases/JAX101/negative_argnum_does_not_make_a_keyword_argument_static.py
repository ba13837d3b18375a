# JAX infers static_argnames only from non-negative argnums: a Vehicle passed by keyword is traced.
# At this call the only positional argument (x) is argument -1 (checked: jax raises a
# TypeError tracing the Vehicle, it is not static).
import jax
class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels
@jax.jit(static_argnums=-1)
def f(x, v):
    return x + v.num_wheels
f(1.0, v=Vehicle(2))
