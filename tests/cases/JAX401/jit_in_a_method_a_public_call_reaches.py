# Users call a layer (`layer(x)`, its public `__call__`), which calls `self._atten_logits`, which jits a nested function on every call.
# jax 0.10.2 and 0.12.0.1: every eager call of the layer compiles `_get_slopes` again for the same `n_heads`.
import functools

import jax
import jax.numpy as jnp


class LocalSelfAttentionAlibi:
    def __init__(self, n_heads):
        self.n_heads = n_heads

    def __call__(self, x):
        return self._atten_logits(x)

    def _atten_logits(self, x):
        @functools.partial(jax.jit, static_argnums=0)  # expect: JAX401
        def _get_slopes(n):
            return jnp.arange(n) * 0.5

        return x * _get_slopes(self.n_heads).sum()


class _Helper:
    # A private class: its `__call__` is no API of the library, and nothing here calls it again and again.
    def __call__(self, x):
        return jax.jit(lambda v: v * 2)(x)
