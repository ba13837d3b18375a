"""jax.jit of a lambda made on every call of step(): made once, at module level."""
import jax
import jax.numpy as jnp


def _body(v):
    return v * 2.0 + 1.0


_jitted_step = jax.jit(lambda v: _body(v))


def step(x):
    # the lambda is rebuilt here on every call
    return _jitted_step(x)


def run():
    return [step(jnp.ones(3)) for _ in range(4)]
