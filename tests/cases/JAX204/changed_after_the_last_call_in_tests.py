# A test calls the jitted function, then changes what it read and never calls it again: no later call can hit the entry.
# jax 0.10.2 and 0.12.0.1: the one call gives 2.0; nothing runs after `SCALE = 3.0` (or `del`) that could reuse it.
import jax

SCALE = 1.0


@jax.jit
def scaled(x):
    return x * SCALE


def test_scaled_once():
    global SCALE
    assert float(scaled(2.0)) == 2.0
    SCALE = 3.0


def test_scaled_and_cleaned_up():
    global SCALE
    assert float(scaled(2.0)) == 2.0
    del SCALE
