# A library model picks `jax.jit` or `jax.pmap` by a condition into a local and applies it to its own methods: latent, as `jax.jit(self.m)`.
# jax 0.10.2 (one device): after `model.decode_hints = False` the kept `model.jitted_predict(x)` still gives the result for True.
import jax
import jax.numpy as jnp


class BaselineModel:
    def __init__(self, decode_hints=True, n_devices=1):
        self.decode_hints = decode_hints
        func, static_arg, extra_args = (
            (jax.jit, "static_argnums", {}) if n_devices == 1 else
            (jax.pmap, "static_broadcasted_argnums", {"axis_name": "batch"}))
        extra_args[static_arg] = 2
        self.jitted_predict = func(self._predict, **extra_args)  # expect: JAX201
        jit = jax.jit if n_devices == 1 else jax.pmap
        self.jitted_loss = jit(self._loss)  # expect: JAX201

    def _predict(self, x, n):
        return jnp.where(self.decode_hints, x * n, x)

    def _loss(self, x):
        return jnp.sum(x) if self.decode_hints else jnp.mean(x)
