# A module-level loop that jits a new lambda on every turn compiles on every turn.
# jax 0.10.2: the loop body makes a new lambda on every turn: 4 turns, 4 traces.
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


for i in range(4):
    jax.jit(lambda v: v)(i)  # expect: JAX401
