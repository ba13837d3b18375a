# A mutable dataclass jits a closure over a private field nothing assigns again: users are not invited to set it.
import dataclasses

import jax


@dataclasses.dataclass
class Scaler:
    _scale: float = 1.0

    def __post_init__(self):
        self._apply = jax.jit(lambda x: x * self._scale)

    def __call__(self, x):
        return self._apply(x)
