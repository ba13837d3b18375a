# A module-level dict read by a function that is not jitted (and called by none that is) is read afresh on every call.
# jax 0.10.2: `report()` sees the change at once; the jitted `double` reads no global.
import jax

SCALES = {"a": 1.0}


@jax.jit
def double(x):
    return x * 2.0


def report(x):
    return x * SCALES["a"]


def run():
    first = double(1.0), report(1.0)
    SCALES["a"] = 4.0
    return first, (double(1.0), report(1.0))
