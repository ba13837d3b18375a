# Fields annotated with an interface base hold its frozen dataclass subclasses: static-safe.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
import dataclasses
from functools import partial
import jax, jax.numpy as jnp

class Initializer:
    """Interface: subclasses are frozen dataclasses."""
    def __call__(self, key, shape):
        raise NotImplementedError

@dataclasses.dataclass(frozen=True)
class Normal(Initializer):
    std: float = 1.0
    def __call__(self, key, shape):
        return self.std * jax.random.normal(key, shape)

@dataclasses.dataclass(frozen=True)
class Constant(Initializer):
    value: float = 0.0
    def __call__(self, key, shape):
        return jnp.full(shape, self.value)

@dataclasses.dataclass(frozen=True)
class Dense:
    features: int
    kernel_init: Initializer = Normal()
    bias_init: Initializer = Constant()

@partial(jax.jit, static_argnums=1)
def init(key, layer: Dense):
    return layer.kernel_init(key, (layer.features,)) + layer.bias_init(key, (layer.features,))

k = jax.random.PRNGKey(0)
print(init(k, Dense(2)), init(k, Dense(2, Normal(2.0))), init._cache_size())
