# A jitted function appends to a module-level list to count its traces: the list is written at trace time, never read into the result.
# jax 0.10.2 and 0.12.0.1: step(2.0) gives 4.0 on every call and TRACES ends as [1], one trace; nothing stale is computed from it.
import jax
import jax.numpy as jnp

TRACES = []
COUNT = [0]


@jax.jit
def step(x):
    TRACES.append(1)
    COUNT[0] += 1
    return x * 2.0


for _ in range(3):
    print(float(step(jnp.float32(2.0))))
print(TRACES, COUNT)
