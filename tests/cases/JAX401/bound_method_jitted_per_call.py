# `self.apply` is a new bound method on every read, so jitting it in __call__ compiles on every call.
# jax 0.10.2: `self.apply` is a new bound method on every read: 4 calls of model(x), 4 traces.
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
        return jax.jit(self.apply)(x)  # expect: JAX401


def train(xs):
    # Called on every turn of the loop: what `step` and `Model.__call__` make, they make again.
    model = Model(2.0)
    for x in xs:
        step(x, xs)
        model(x)
