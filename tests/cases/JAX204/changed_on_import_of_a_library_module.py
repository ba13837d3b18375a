# A library module calls its public jitted function on import, then changes what it read: its users' calls are stale.
# jax 0.10.2 and 0.12.0.1: the import-time call traces with 1.0; a user's `scaled(2.0)` then gives 2.0 where 6.0 is right.
import jax

SCALE = 1.0


@jax.jit
def scaled(x):
    return x * SCALE


WARMED_UP = scaled(1.0)
SCALE = 3.0  # expect: JAX204
