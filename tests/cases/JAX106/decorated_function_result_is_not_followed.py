# A decorator converts what the function returns (a list to a tuple): its returns are not what the call gives.
import functools

import jax
import jax.numpy as jnp


def as_tuple(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return tuple(fn(*args))

    return wrapper


@as_tuple
def target_shape(n):
    return [n, 1]


@functools.partial(jax.jit, static_argnums=1)
def f(x, shape):
    return jnp.reshape(x, shape)


f(jnp.ones(3), target_shape(3))
