# A notebook-style script defines the jitted function again before calling it after the change: a new function, a new cache.
# jax 0.10.2 and 0.12.0.1: the second `rollout` traces afresh and reads SCALE = 3.0: 6.0, right.
import jax

SCALE = 1.0


@jax.jit
def rollout(x):
    return x * SCALE


print(rollout(2.0))
SCALE = 3.0


@jax.jit
def rollout(x):  # noqa: F811 - a cell run again, as notebooks do
    return x * SCALE


print(rollout(2.0))
