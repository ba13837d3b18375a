# `ndim` and `size` derived from `dims`, which the key compares, are equal whenever the keys are.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
from functools import partial
import jax

class Shape:
    def __init__(self, dims):
        object.__setattr__(self, "dims", tuple(dims))
        object.__setattr__(self, "ndim", len(dims))
        object.__setattr__(self, "size", max(dims))
    def __setattr__(self, k, v):
        raise AttributeError
    @property
    def key(self):
        return (type(self), self.dims)
    def __eq__(self, o):
        return isinstance(o, Shape) and self.key == o.key
    def __hash__(self):
        return hash(self.key)

@partial(jax.jit, static_argnums=1)
def f(x, s: Shape):
    return x * s.ndim + s.size + sum(s.dims)

print(f(1.0, Shape([1, 2])), f(1.0, Shape([1, 2, 3])))
