# A module-level loop that jits `m.apply` jits a new bound method, and compiles, on every turn.
# jax 0.10.2: `m.apply` is a new bound method on every turn, and jit traces it again: 4 turns, 4 traces.
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


m = Model(2.0)
for i in range(4):
    jax.jit(m.apply)(i)  # expect: JAX401
