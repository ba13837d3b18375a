# A jitted function defined and called inside another function is found: its list argument is unhashable.
# jax 0.10.2: outer(1.0) raises "Non-hashable static arguments". (`inner` is
# jitted anew on every call of `_outer`, but `_outer` is private and called once: no JAX401.)
from functools import partial
import jax

def _outer(x):
    @partial(jax.jit, static_argnums=1)
    def inner(x, opts):
        return x * len(opts)
    return inner(x, [1, 2])  # expect: JAX106


print(_outer(1.0))
