# A function jitted before a loop and called in it compiles once per call of its maker, which `train` calls on every turn.
# jax 0.10.2: each call of step() traces once for its 4 calls; `train` over 3 items traces 3 times, where 1 is needed.
import jax


def body(v, n=1):
    return v * n


def step(x, xs):
    f = jax.jit(lambda v: v * 2)  # expect: JAX401
    for _ in range(4):
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
