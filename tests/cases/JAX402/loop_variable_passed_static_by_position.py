# `jax.jit(f, static_argnums=1)` makes the second positional argument static: the loop counter passed there compiles once per value.
# jax 0.10.2 and 0.12.0.1: `shifted(x, 12)` leaves 12 compiled programs in `shift`'s cache, where 1 is needed.
import jax


def _shift(x, k):
    return x + k


shift = jax.jit(_shift, static_argnums=1)


def shifted(x, steps):
    out = []
    for k in range(steps):
        out.append(shift(x, k))  # expect: JAX402
    return out
