# A function jitted once in __init__ and stored on `self` is reused by every call of the object.
# jax 0.10.2: jitted once per object; every call of model(x) reuses its cache.
import jax


def body(v, n=1):
    return v * n


def step(x, xs):
    return x


class Model:
    def __init__(self, scale):
        self.scale = scale
        self._apply = jax.jit(lambda x: x * 2)

    def apply(self, x):
        return x * self.scale

    def __call__(self, x):
        return self._apply(x)


def train(xs):
    # Called on every turn of the loop: what `step` and `Model.__call__` make, they make again.
    model = Model(2.0)
    for x in xs:
        step(x, xs)
        model(x)
