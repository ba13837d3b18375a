# jit finds its cache again for the same module-level function, so jitting it per call does not recompile.
# jax 0.10.2: jit finds its cache again for the same module-level `body`: 4 calls, 1 trace.
import jax


def body(v, n=1):
    return v * n


def step(x, xs):
    return jax.jit(body)(x)


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
