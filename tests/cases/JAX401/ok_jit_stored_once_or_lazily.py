# Jitted once in `__init__`, or lazily behind a guard on the attribute: no JAX401.
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale

        def apply(x):
            return x * scale

        self._apply = jax.jit(apply)
        self._grad = None

    def grad(self, x):
        if self._grad is None:
            self._grad = jax.jit(jax.grad(lambda v: (v * self.scale).sum()))
        return self._grad(x)

    def setup_fast_path(self):
        self._fast = jax.jit(lambda v: v + 1.0)

    def fast(self, x):
        return self._fast(x)


class Env:
    """Built again and again in a loop: each new object jits its own step once."""

    def __init__(self, size):
        def step(x):
            return x + size

        self.step = jax.jit(step)


def rollout(sizes, x):
    for size in sizes:
        x = Env(size).step(x)
    return x
