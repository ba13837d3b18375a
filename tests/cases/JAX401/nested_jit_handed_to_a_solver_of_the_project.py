# A public `solve` jits a nested objective and hands it to the project's `minimize` for that call only: each solve compiles the objective again.
# jax 0.10.2 and 0.12.0.1: every call of `solve` traces and compiles `obj` again.
import jax
import jax.numpy as jnp


def minimize(fn, x0, steps=10):
    for _ in range(steps):
        x0 = x0 - 0.1 * jax.grad(fn)(x0)
    return x0


class Trainer:
    def __init__(self, step):
        self.step = step


class SubproblemSolver:
    def solve(self, x0, target):
        @jax.jit  # expect: JAX401
        def obj(x):
            return jnp.sum((x - target) ** 2)

        return minimize(obj, x0)

    def trainer(self, target):
        step = jax.jit(lambda x: x - target)
        return Trainer(step)  # kept by the object it builds
