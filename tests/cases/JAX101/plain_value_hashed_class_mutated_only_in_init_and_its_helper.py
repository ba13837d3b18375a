# A value-hashed plain class assigned only in __init__ and its helper can still be assigned: JAX101 under the design standard.
import jax

class Config:  # expect: JAX101  (latent: public state the trace reads)
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels
        self._derive()

    def _derive(self):
        self.total = 2 * self.num_wheels

    def __eq__(self, other):
        return type(other) is type(self) and other.num_wheels == self.num_wheels

    def __hash__(self):
        return hash((type(self), self.num_wheels))

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.total

f(Config(2), 1.0)
