# An `__eq__` without the type in a class hierarchy used only as top-level static `self`: JAX keys the type there.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
# hierarchy, hand-written eq in base without the type; used only as top-level static self
import jax, jax.numpy as jnp
from functools import partial

class Activation:
    def __init__(self, alpha):
        object.__setattr__(self, "alpha", alpha)
    def __setattr__(self, k, v):
        raise AttributeError
    def __eq__(self, other):
        return isinstance(other, Activation) and self.alpha == other.alpha
    def __hash__(self):
        return hash(self.alpha)
    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return self.apply(x)
    def apply(self, x):
        return x * self.alpha

class Leaky(Activation):
    def apply(self, x):
        return jnp.where(x > 0, x * self.alpha, 0.0)

print(Activation(2.0)(-1.0), Leaky(2.0)(-1.0), Activation(0.5)(-1.0), Leaky(0.5)(-1.0))
