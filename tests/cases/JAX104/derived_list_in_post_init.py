# A list and a cached_property derived from fields in __post_init__ are no fields: they follow the compared ones.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
# frozen dataclass with derived fields in __post_init__ and a cached_property
import dataclasses, functools
from functools import partial
import jax

@dataclasses.dataclass(frozen=True)
class Conv:
    features: int
    kernel: tuple
    strides: tuple = (1, 1)
    def __post_init__(self):
        if len(self.kernel) != 2:
            raise ValueError("kernel")
        object.__setattr__(self, "kernel", tuple(self.kernel))
        object.__setattr__(self, "ndim", len(self.kernel))
        object.__setattr__(self, "_padding", [k // 2 for k in self.kernel])
    @functools.cached_property
    def fan_in(self):
        return self.features * self.kernel[0]

@partial(jax.jit, static_argnums=1)
def f(x, c: Conv):
    return x * c.fan_in + c.ndim + sum(c._padding)

print(f(1.0, Conv(2, [3, 3])), f(1.0, Conv(2, (3, 3))))
