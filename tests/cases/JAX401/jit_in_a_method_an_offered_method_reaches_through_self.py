# The public `maybe_update_weights` calls `self.update_weights`, which calls `self._recycle`: each recycling event jits a new `partial` there.
# jax 0.10.2 and 0.12.0.1: every call of `maybe_update_weights` that recycles traces and compiles the tree map again.
import functools

import jax


def _reset(param, mask):
    return param * mask


class Recycler:
    def __init__(self, period):
        self.period = period

    def maybe_update_weights(self, step, params, mask):
        if step % self.period == 0:
            return self.update_weights(params, mask)
        return params

    def update_weights(self, params, mask):
        return self._recycle(params, mask)

    def _recycle(self, params, mask):
        reset = jax.jit(functools.partial(jax.tree.map, _reset))  # expect: JAX401
        return reset(params, mask)
