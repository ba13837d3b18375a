# A private factory jits `value_and_grad(func)` and returns a closure over it; public `minimize` uses it for one call only: each call compiles again.
# jax 0.10.2 and 0.12.0.1: `value_and_grad(func)` is a new function per factory call, so every `minimize` traces and compiles anew.
import jax
import numpy as np
from scipy import optimize


def _wrap_func_and_grad(func):
    val_grad = jax.jit(jax.value_and_grad(func))  # expect: JAX401

    def wrapper(x):
        val, grad = val_grad(x)
        return float(val), np.asarray(grad)

    return wrapper


def _batched(fn):
    return jax.jit(jax.vmap(fn))  # expect: JAX401


def minimize(func, x0):
    min_func = _wrap_func_and_grad(func)

    def fun(x):
        return optimize.minimize(min_func, x, jac=True).x

    return jax.pure_callback(fun, jax.ShapeDtypeStruct(x0.shape, x0.dtype), x0)


def evaluate(fn, xs):
    return _batched(fn)(xs)
