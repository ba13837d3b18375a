# A lambda jitted once at import is made once, however often it is called.
# jax 0.10.2: made once, at import, and called as often as needed: 1 trace.
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
        return x


def train(xs):
    # Called on every turn of the loop: what `step` and `Model.__call__` make, they make again.
    model = Model(2.0)
    for x in xs:
        step(x, xs)
        model(x)


f = jax.jit(lambda v: v * 2)
f(1.0)
jax.jit(lambda v: v)(1.0)
