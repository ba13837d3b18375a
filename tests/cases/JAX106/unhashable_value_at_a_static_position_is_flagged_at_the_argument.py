# A list at a static position is unhashable: JAX raises, and the finding is at the argument.
import jax

@jax.jit(static_argnums=1)
def f(x, n):
    return x

f(1.0, [1, 2])  # expect: JAX106
