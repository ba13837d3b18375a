# A numpy constant derived from `size` in __post_init__ is no dataclass field: equal windows share a cache entry.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
import dataclasses
from functools import partial
import jax, jax.numpy as jnp, numpy as np

@dataclasses.dataclass(frozen=True)
class Window:
    size: int
    def __post_init__(self):
        # precomputed constant, derived from `size`; not a dataclass field
        object.__setattr__(self, "_taps", np.linspace(0.0, 1.0, self.size))

@partial(jax.jit, static_argnums=1)
def smooth(x, w: Window):
    return x * jnp.asarray(w._taps).sum()

print(smooth(1.0, Window(3)), smooth(1.0, Window(3)), smooth(1.0, Window(5)), smooth._cache_size())
