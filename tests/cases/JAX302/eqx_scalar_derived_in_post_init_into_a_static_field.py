# equinox issue 1034: a derived scalar, `jnp.sqrt(...)`, stored in an `eqx.field(static=True)` by __post_init__.
# jax 0.10.2 and 0.12.0.1, equinox 0.13.8, CPU: construction warns (`UserWarning: A JAX array is being set as
# static!`, and a second warning for `field(init=False)`). The value is a 0-d array, whose `==` has a truth
# value, so jax.jit and eqx.filter_jit neither raise nor go stale (5.0, 5.0, then 10.0 for MyFunc(6, 8)).
# But the field is structure, not a leaf: jax.grad / eqx.filter_grad of m(1.0) with respect to the module give
# d/da = d/db = 0.0 where 0.6 and 0.8 are right (silently wrong), and building the module under jax.jit or
# jax.grad (traced `a`) raises `TypeError: 'NoneType' object is not callable` inside equinox's init=False check
# (with `static=True` assigned in __init__ instead, returning the module from jit raises UnexpectedTracerError).
import equinox as eqx
import jax
import jax.numpy as jnp


class MyFunc(eqx.Module):
    a: jax.Array
    b: jax.Array
    len: float = eqx.field(init=False, static=True)  # expect: JAX302

    def __post_init__(self):
        self.len = jnp.sqrt(self.a**2 + self.b**2)

    def __call__(self, x):
        return self.len * x


m = MyFunc(jnp.float32(3.0), jnp.float32(4.0))
grads = eqx.filter_grad(lambda m: m(1.0))(m)
print(float(grads.a), float(grads.b), "expected", 0.6, 0.8)
