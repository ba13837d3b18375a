# A nested jitted function called several times in one call of its maker reuses its cache, and nothing calls the maker again.
# jax 0.10.2: inner compiles once per call of step(), and its second call hits that cache.
import jax


def body(v, n=1):
    return v * n


def step(x, xs):
    @jax.jit
    def inner(v):
        return v * 2

    return inner(inner(x))


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
