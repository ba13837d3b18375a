"""A dict at a static position becomes (key, value) pairs: the function must read it with dict()."""
import jax


def affine(x, opts):
    opts = dict(opts)
    return x * opts["a"] + opts["b"]


g = jax.jit(affine, static_argnums=1)


def run(x):
    return g(x, (("a", 3),  ("b", 1)))  # spacing inside the dict kept
