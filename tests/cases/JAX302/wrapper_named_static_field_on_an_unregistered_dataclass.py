# A `static_field()` wrapper on a plain dataclass that is never registered as a pytree: the metadata means nothing.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: `Stats` never crosses a transform; the array is
# ordinary data read eagerly (2.0).
import dataclasses

import jax.numpy as jnp


def static_field(**kwargs):
    return dataclasses.field(metadata={"static": True}, **kwargs)


@dataclasses.dataclass
class Stats:
    name: str
    mask: jnp.ndarray = static_field(default=None)


s = Stats("run", jnp.array([1.0, 0.0, 1.0]))
print(float(jnp.sum(s.mask * jnp.ones(3))))
