# A closure calls `self.evaluate`; the subclass whose state changes does not override it, so the closure never reads that state.
import jax
import jax.numpy as jnp


class Kernel:
    def __init__(self):
        def pair(x, y):
            return self.evaluate(x, y)

        self._pairs = jax.jit(jax.vmap(pair))

    def evaluate(self, x, y):
        return jnp.exp(-((x - y) ** 2))

    def __call__(self, xs, ys):
        return self._pairs(xs, ys)


class Logged(Kernel):
    def __init__(self):
        self.calls = 0
        super().__init__()

    def __call__(self, xs, ys):
        self.calls += 1
        return super().__call__(xs, ys)
