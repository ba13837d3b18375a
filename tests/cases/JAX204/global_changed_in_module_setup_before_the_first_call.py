# Module-level setup code changes the globals at import, before any jitted call: the first trace already sees the final values.
# jax 0.10.2 and 0.12.0.1: SCALES["a"] is 4.0 and DEBUG_SCALE 3.0 before the first call, and scaled(2.0) gives 24.0 every time.
import os

import jax
import jax.numpy as jnp

SCALES = {"a": 1.0}
SCALES["a"] = float(os.environ.get("SCALE_A", "4.0"))
DEBUG_SCALE = 1.0
if not os.environ.get("NO_DEBUG_SCALE"):
    DEBUG_SCALE = 3.0


@jax.jit
def scaled(x):
    return x * SCALES["a"] * DEBUG_SCALE


for _ in range(3):
    print(float(scaled(jnp.float32(2.0))))
