# The project's `static_field()` wrapper on a field given a tuple of floats: hashable configuration.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: equal tuples share 1 trace, give 2.0 each, and a
# new mask compiles again and gives 3.0.
import dataclasses

import jax
import jax.numpy as jnp

TRACES = 0


def static_field(**kwargs):
    return dataclasses.field(metadata={"static": True}, **kwargs)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Masked:
    x: jax.Array
    mask: tuple = static_field(default=(1.0, 0.0, 1.0))


@jax.jit
def masked_sum(masked):
    global TRACES
    TRACES += 1
    return jnp.sum(masked.x * jnp.asarray(masked.mask))


out = [float(masked_sum(Masked(jnp.ones(3)))) for _ in range(2)]
out.append(float(masked_sum(Masked(jnp.ones(3), (1.0, 1.0, 1.0)))))
print(out, "traces", TRACES)
