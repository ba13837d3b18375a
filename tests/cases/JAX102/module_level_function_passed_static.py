# A module-level function or class hashes by identity but is one object for the whole run: static-safe.
import jax

def activation(x):
    return x * 2

class Holder:
    pass

@jax.jit(static_argnums=1)
def f(x, fn):
    return fn(x)

f(1.0, activation)
f(1.0, Holder)
f(1.0, fn=activation)
