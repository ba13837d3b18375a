# A mutable dataclass a library offers jits a closure over its public field: its users set `scale`, the closure keeps the old one.
# jax 0.10.2 and 0.12.0.1: 2.0, then 2.0 again where 3.0 is right after `s.scale = 3.0`.
import dataclasses

import jax


@dataclasses.dataclass
class Scaler:
    scale: float = 1.0

    def __post_init__(self):
        self._apply = jax.jit(lambda x: x * self.scale)  # expect: JAX203

    def __call__(self, x):
        return self._apply(x)
