# A base-class helper called only from __init__ initialises, it does not mutate: JAX101 at the class, not at the helper.
# jax 0.10.2: f(1.0, Cfg(2)) twice compiles once; Cfg is a mutable plain class that f reads, so JAX101 at its class line.
from functools import partial
import jax

class Base:
    def _setup(self, n):
        self.n = n

class Cfg(Base):  # expect: JAX101  (latent: public state the trace reads)
    def __init__(self, n):
        self._setup(n)

    def __eq__(self, other):
        return type(other) is type(self) and other.n == self.n

    def __hash__(self):
        return hash((type(self), self.n))

@partial(jax.jit, static_argnums=1)
def f(x, cfg):
    return x * cfg.n

f(1.0, Cfg(2))
