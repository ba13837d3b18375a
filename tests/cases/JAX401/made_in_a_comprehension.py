# A jitted lambda made inside a comprehension compiles once per element.
# jax 0.10.2: a new lambda per element: 4 elements, 4 traces.
import jax


def body(v, n=1):
    return v * n


def step(x, xs):
    return [jax.jit(lambda v: v)(x) for x in xs]  # expect: JAX401


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
