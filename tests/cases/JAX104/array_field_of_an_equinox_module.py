# An eqx.Module is frozen and value-hashed, but a field holding an array makes it unhashable as a static value.
import functools
import jax
import equinox as eqx

class C(eqx.Module):
    n: int
    w: jax.Array  # expect: JAX104

@functools.partial(jax.jit, static_argnums=1)
def f(x, c):
    return x * c.n

f(1.0, C(1))
