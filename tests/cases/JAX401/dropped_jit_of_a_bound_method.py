# `jax.jit(self.apply)` with its result dropped jits nothing that runs: the call is made for nothing on every call.
# jax 0.10.2: jax.jit returns a new function and leaves `self.apply` as it was: it runs un-jitted.
import jax


def body(v, n=1):
    return v * n


def step(x, xs):
    return x


class Model:
    def __init__(self, scale):
        self.scale = scale

    def apply(self, x):
        return x * self.scale

    def __call__(self, x):
        jax.jit(self.apply)  # expect: JAX401
        return self.apply(x)


def train(xs):
    # Called on every turn of the loop: what `step` and `Model.__call__` make, they make again.
    model = Model(2.0)
    for x in xs:
        step(x, xs)
        model(x)
