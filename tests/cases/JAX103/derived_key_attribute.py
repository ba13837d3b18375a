# A key stored once in __init__ from every field is what `__eq__` and `__hash__` compare: nothing left out.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
# Key stored once in __init__; __eq__/__hash__ compare the stored key.
from functools import partial
import jax

class Config:
    __slots__ = ("scale", "offset", "_key")
    def __init__(self, scale, offset):
        object.__setattr__(self, "scale", scale)
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "_key", (scale, offset))
    def __setattr__(self, name, value):
        raise AttributeError("immutable")
    def __hash__(self):
        return hash(self._key)
    def __eq__(self, other):
        return type(other) is type(self) and self._key == other._key

@partial(jax.jit, static_argnums=1)
def apply(x, cfg):
    return x * cfg.scale + cfg.offset

print(apply(1.0, Config(2, 0)), apply(1.0, Config(2, 5)))
