"""Lists, a set and a comprehension at static positions of `jax.jit`: JAX raises on each call, so the fix is safe."""
from functools import partial

import jax


@partial(jax.jit, static_argnums=(1, 2, 3))
def f(x, dims, names, sizes):
    return x * sum(dims) * len(names) * sum(sizes)


def run(x, n):
    a = f(x, (1, 2), frozenset({"a", "b"}), tuple(i * 2 for i in range(n)))  # keep this comment
    b = f(
        x,
        (
            1,  # one
            2,  # two
        ),
        (frozenset({"c"})),
        (3,),
    )
    return a + b
