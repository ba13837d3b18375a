# A library's model jits its own method once and keeps it; the method reads public settings users may change.
# jax 0.10.2 and 0.12.0.1: after `model.scale = 3.0`, `model.predict(x)` still multiplies by 2.0 (the old value).
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale
        self._predict = jax.jit(self._apply)  # expect: JAX201

    def _apply(self, x):
        return x * self.scale

    def predict(self, x):
        return self._predict(x)
