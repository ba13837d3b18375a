# A nested jitted function called twice in one call of its maker reuses its cache there, but `train` calls the maker on every turn.
# jax 0.10.2: inner compiles once per call of step() (its second call hits that cache): once per item of `train`.
import jax


def body(v, n=1):
    return v * n


def step(x, xs):
    @jax.jit  # expect: JAX401
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
