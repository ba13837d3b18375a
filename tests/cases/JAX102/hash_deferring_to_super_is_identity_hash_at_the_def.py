# `super().__hash__()` is object's identity hash: reported at the `def __hash__` line.
# jax 0.10.2: two equal Cfg(2) compile twice (`_cache_size()` 2), and after `c.n = 3` f(1.0, c) still returns 2.0.
from functools import partial
import jax

class Cfg:  # expect: JAX101  (latent: public state the trace reads)
    def __init__(self, n):
        self.n = n

    def __eq__(self, other):
        return isinstance(other, Cfg) and other.n == self.n

    def __hash__(self):  # strict: JAX102
        return super().__hash__()

@partial(jax.jit, static_argnums=1)
def f(x, cfg):
    return x * cfg.n

f(1.0, Cfg(2))
