# A loop over a tuple written in the code gives a static argument a small, fixed set of values: two compilations, each needed.
import functools

import jax


@functools.partial(jax.jit, static_argnames="mode")
def apply(params, x, mode):
    if mode == "train":
        return x * params
    return x * params * 0.5


def run_both(params, x):
    out = {}
    for mode in ("train", "eval"):
        out[mode] = apply(params, x, mode=mode)
    return out
