# A static config whose `layers` default is a new list: its generated `__hash__` hashes the list, so jax.jit
# raises `ValueError: Non-hashable static arguments are not supported` (jax 0.10.2 and 0.12.0.1).
import dataclasses
from functools import partial

import jax


@dataclasses.dataclass(frozen=True)
class Options:
    scale: float = 3.0
    layers: list = dataclasses.field(default_factory=list)  # expect: JAX104


@partial(jax.jit, static_argnames=("opts",))
def step(x, opts):
    return x * opts.scale


def main():
    step(1.0, opts=Options())
