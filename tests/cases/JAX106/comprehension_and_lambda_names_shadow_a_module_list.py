# A comprehension variable or lambda parameter shadows the module-level list of the same name: tuples are passed.
# jax 0.10.2: runs; the shadowing names hold tuples (1, 2), (2, 3) and (1, 2, 3).
from functools import partial
import jax

@partial(jax.jit, static_argnums=1)
def f(x, sizes):
    return x * len(sizes)

sizes = [1, 2, 3]
per_pair = [f(1.0, sizes) for sizes in [(1, 2), (2, 3)]]
run = lambda sizes: f(1.0, sizes)
run(tuple(sizes))
