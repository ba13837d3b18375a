# A hand-written `__hash__` hashes a field that holds an array: hashing the static `cfg`
# raises TypeError, so the call raises `ValueError: Non-hashable static arguments are not
# supported` (jax 0.10.2 and 0.12.0.1).
from functools import partial

import jax
import jax.numpy as jnp


class Cfg:  # expect: JAX101  (latent: public state the trace reads)
    def __init__(self, table):
        self.table = jnp.asarray(table)  # expect: JAX104

    def __hash__(self):
        return hash(self.table)

    def __eq__(self, other):
        return type(other) is type(self) and self.table is other.table


@partial(jax.jit, static_argnums=1)
def lookup(i, cfg):
    return cfg.table[i]


try:
    print(float(lookup(0, Cfg([1.0, 2.0]))))
except ValueError as e:
    print(str(e).splitlines()[0][:55])
