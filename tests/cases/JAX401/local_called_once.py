# A jitted lambda held in a local for one call still compiles on every call of the function that makes it.
# jax 0.10.2: held in a local for one call, the new jitted lambda still compiles on every call of step().
import jax


def body(v, n=1):
    return v * n


def step(x, xs):
    f = jax.jit(lambda v: v * 2)  # expect: JAX401
    return f(x)


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
