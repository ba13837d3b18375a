# jit on module-level functions has no `self`, even when the first parameter is named `self`.
from functools import partial

import jax
from jax import jit

@jax.jit
def scale(factor, y):
    return factor * y

@jit
def shift(self, y):  # a first parameter named `self` does not make a method
    return self + y

@partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n

def add(x, y):
    return x + y

add_jit = jax.jit(add)
