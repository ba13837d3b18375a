# `static_argnums=(0, 4)` on a method of 4 positional parameters: JAX raises "Jitted function has static_argnums=(0, 4), but only accepts 4 positional arguments" at the decorator (jax 0.4.30 to 0.12.0.1), so nothing is ever cached on `self`.
import functools

import jax


class Maze:
    def __init__(self, size):
        self.size = size

    @functools.partial(jax.jit, static_argnums=(0, 4))
    def step(self, key, state, action):
        return state + self.size


def run(maze, key, state):
    for action in range(3):
        state = maze.step(key, state, action)
        maze.size += 1
    return state
