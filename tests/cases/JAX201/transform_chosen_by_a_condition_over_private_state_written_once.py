# A transform chosen by a condition, applied to a method that reads only private state set once: nothing users set is compiled in.
# jax 0.10.2: `_scale` is written in `__init__` only, so the kept jitted function stays right.
import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, scale, n_devices=1):
        self._scale = scale
        func = jax.jit if n_devices == 1 else jax.pmap
        self.jitted = func(self._apply)

    def _apply(self, x):
        return x * self._scale
