# A registry's `make(name)` called once in `main()`, and a dict registry whose class is built once at module level: one object per run, compiled once.
import functools
import sys

import jax


class Grid:  # strict: JAX101, JAX102
    def __init__(self, size):
        self._size = size

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x * self._size


class Line:  # strict: JAX101, JAX102
    def __init__(self, size):
        self._size = size

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x + self._size


ENVS = {"grid": Grid, "line": Line}


def make(env_id, **kwargs):
    if env_id == "grid":
        return Grid(**kwargs)
    elif env_id == "line":
        return Line(**kwargs)
    raise ValueError(env_id)


def main():
    env = make("grid", size=4)
    total = 0
    for x in range(10):
        total += env.step(x)
    print(total)


DEFAULT = ENVS[sys.argv[1] if len(sys.argv) > 1 else "line"](size=2)

if __name__ == "__main__":
    main()
    print(DEFAULT.step(1))
