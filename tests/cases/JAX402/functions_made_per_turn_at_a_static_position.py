# A lambda or functools.partial made on every turn (or every call of a public function) at a static position is a
# new key each time; one made once before the loop, a module-level function, or one made in a test is not flagged.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("fn",))
def apply(x, fn):
    return fn(x)


def double(v):
    return v * 2


def run(x, scale, steps):
    once = partial(jnp.multiply, scale)
    for _ in range(steps):
        x = apply(x, fn=lambda v: v * scale)  # expect: JAX402
        x = apply(x, fn=partial(jnp.multiply, scale))  # expect: JAX402
        x = apply(x, fn=once)
        x = apply(x, fn=double)
    return x


def predict(x, scale):
    return apply(x, fn=lambda v: v * scale)  # expect: JAX402


def test_apply():
    for scale in (1.0, 2.0):
        apply(jnp.ones(3), fn=lambda v: v * scale)
