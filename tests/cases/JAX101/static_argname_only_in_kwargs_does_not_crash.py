# A static_argnames entry that names no parameter (only **kw) is analysed without a crash, and nothing is static.
from functools import partial
import jax

@partial(jax.jit, static_argnames=("missing",))
def f(x, **kw):
    return x
