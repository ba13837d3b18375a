# `static_argnums=(0, 4)` on a method of 4 positional parameters: JAX raises "Jitted function has static_argnums=(0, 4), but only accepts 4 positional arguments" at the decorator (jax 0.4.30 to 0.12.0.1), so the class statement fails: neither `Environment` nor its subclass exists, and nothing is ever cached on `self`.
import functools

import jax


class Environment:
    @functools.partial(jax.jit, static_argnums=(0, 4))
    def step(self, key, state, action):
        return self.step_env(key, state, action)

    @functools.partial(jax.jit, static_argnums=(0,))
    def reset(self, key):
        return self.reset_env(key)


class Maze(Environment):
    def __init__(self, size):
        self.size = size

    def step_env(self, key, state, action):
        return state + self.size

    def reset_env(self, key):
        return key * self.size


def run(maze, key, state):
    for action in range(3):
        state = maze.step(key, state, action)
        maze.reset(key)
        maze.size += 1
    return state
