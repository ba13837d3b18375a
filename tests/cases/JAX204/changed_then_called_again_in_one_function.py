# The same function calls the jitted function, changes what it read, and calls it again: the second call is stale.
# jax 0.10.2 and 0.12.0.1: both calls give 2.0; 6.0 is right after `SCALE = 3.0`.
import jax

SCALE = 1.0


@jax.jit
def scaled(x):
    return x * SCALE


def _compare():
    global SCALE
    before = scaled(2.0)
    SCALE = 3.0  # expect: JAX204
    return before, scaled(2.0)


print(_compare())
