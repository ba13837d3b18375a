# numpy's scalar random draws are Python-like scalars, hashable; arrays at a static position are not.
# jax 0.10.2: randint(3) is an int and normal() a float, both jit fine; the two arrays raise "Non-hashable static arguments".
from functools import partial
import jax
import numpy as np

@partial(jax.jit, static_argnums=1)
def h(x, n):
    return x * n

h(1.0, np.random.randint(3))
h(1.0, np.random.normal())
h(1.0, jax.random.normal(jax.random.key(0)))  # expect: JAX106
h(1.0, np.zeros(3))  # expect: JAX106
