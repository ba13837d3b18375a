# The module-level list itself at a static position is unhashable: JAX raises.
# jax 0.10.2: f(1.0, [1, 2, 3]) raises "Non-hashable static arguments".
from functools import partial
import jax

@partial(jax.jit, static_argnums=1)
def f(x, sizes):
    return x * len(sizes)

sizes = [1, 2, 3]
per_pair = [f(1.0, sizes) for sizes in [(1, 2), (2, 3)]]
run = lambda sizes: f(1.0, sizes)
run(tuple(sizes))
f(1.0, sizes)  # expect: JAX106
