# `class A(**kw)` may get any metaclass, so a value of it at a static position is left unjudged.
from functools import partial
import jax

kw = {}

class A(**kw):
    pass

@partial(jax.jit, static_argnums=1)
def f(x, a):
    return x

f(1.0, A())
