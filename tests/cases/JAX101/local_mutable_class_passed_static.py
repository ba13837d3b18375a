# A mutable class defined inside a function and passed static there is judged like a module-level one.
# jax 0.10.2: runs (2.0); a plain class hashes by identity, so each new Cfg() recompiles and a change is never seen.
from functools import partial
import jax

def outer(x):
    class Cfg:  # expect: JAX102; strict: JAX101
        def __init__(self):
            self.n = 2
    @partial(jax.jit, static_argnums=1)  # expect: JAX401
    def inner(x, cfg):
        return x * cfg.n
    return inner(x, Cfg())
