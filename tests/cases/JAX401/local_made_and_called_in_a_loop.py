# A jitted lambda made and called inside a loop compiles on every turn.
# jax 0.10.2: a new lambda per loop turn: 4 turns with same-shaped inputs, 4 traces.
import jax


def body(v, n=1):
    return v * n


def step(x, xs):
    for _ in range(4):
        f = jax.jit(lambda v: v * 0.5)  # expect: JAX401
        x = f(x)
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
