# A frozen dataclass field annotated `list` is converted to a tuple in __post_init__: it holds no list.
# jax 0.10.2 and 0.12.0.1: Layers([4, 8]) stores (4, 8), hashes by value, and two equal configs share 1 trace,
# giving 12.0 each: no evidence, so the default profile is silent. The strict profile flags the `list`
# annotation: the standard asks that a static field be declared with an immutable type (`tuple`).
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp

TRACES = 0


@dataclasses.dataclass(frozen=True)
class Layers:
    sizes: list  # strict: JAX104
    act: str = "relu"

    def __post_init__(self):
        object.__setattr__(self, "sizes", tuple(self.sizes))


@partial(jax.jit, static_argnums=1)
def width(x, cfg: Layers):
    global TRACES
    TRACES += 1
    return x * sum(cfg.sizes)


print([float(width(jnp.float32(1.0), Layers([4, 8]))) for _ in range(2)], "traces", TRACES)
