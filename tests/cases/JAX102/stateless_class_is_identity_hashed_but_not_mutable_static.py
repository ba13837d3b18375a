# A class with no attributes has nothing to go stale (no JAX101), but hashes by identity (JAX102).
import jax

class Doubler:  # strict: JAX102
    def apply(self, x):
        return 2 * x

@jax.jit(static_argnums=1)
def f(x, act: Doubler):
    return act.apply(x)

f(1.0, Doubler())
