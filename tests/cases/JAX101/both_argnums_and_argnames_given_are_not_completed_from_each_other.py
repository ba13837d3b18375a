# With both static_argnums and static_argnames given JAX infers nothing: `v` passed by keyword is not static.
import jax
class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels
@jax.jit(static_argnums=1, static_argnames="k")
def f(x, v, k=0):
    return x + v.num_wheels
f(1.0, v=Vehicle(2))
