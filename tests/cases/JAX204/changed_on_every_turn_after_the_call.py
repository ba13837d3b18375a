# A loop calls the jitted function, then changes what it read: the next turn's call reuses the old value.
# jax 0.10.2 and 0.12.0.1: every turn gives 2.0; 2.0, 4.0 and 8.0 are right.
import jax

SCALE = 1.0


@jax.jit
def scaled(x):
    return x * SCALE


def _run():
    global SCALE
    for _ in range(3):
        print(scaled(2.0))
        SCALE *= 2  # expect: JAX204


_run()
