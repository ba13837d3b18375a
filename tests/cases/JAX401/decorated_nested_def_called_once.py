# A `@jax.jit` nested function is made anew on every call of its outer function and starts with an empty cache.
# jax 0.10.2: `def inner` runs on every call of step(), so inner starts with an empty cache: 4 calls, 4 traces.
import jax


def body(v, n=1):
    return v * n


def step(x, xs):
    @jax.jit  # expect: JAX401
    def inner(v):
        return v * 2

    return inner(x)


class Model:
    def __init__(self, scale):
        self.scale = scale

    def apply(self, x):
        return x * self.scale

    def __call__(self, x):
        return x


def train(xs):
    # Called on every turn of the loop: what `step` and `Model.__call__` make, they make again.
    model = Model(2.0)
    for x in xs:
        step(x, xs)
        model(x)
