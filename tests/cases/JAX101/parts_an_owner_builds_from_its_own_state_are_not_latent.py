# Parts an environment's `__init__` builds from state it keeps (its attributes, parameters it also uses) are its internals, not latent.
# Users set `env.num_allies`, not `env.positions.n_allies`: the parts copy the owner's state once, and nothing changes them.
from functools import partial

import jax
import jax.numpy as jnp


class Distribution:  # strict: JAX101  # strict: JAX102
    def __init__(self, n_allies, width):
        self.n_allies = n_allies
        self.width = width

    @partial(jax.jit, static_argnums=(0,))
    def generate(self, key):
        return jax.random.uniform(key, (self.n_allies, 2)) * self.width


class Planner:  # strict: JAX101  # strict: JAX102
    def __init__(self, move_area):
        self.min_moves = sum(move_area)

    @partial(jax.jit, static_argnums=(0,))
    def closest(self, i):
        return i * self.min_moves


class Helper:  # strict: JAX101  # strict: JAX102
    def __init__(self):
        self.offsets = 4

    @partial(jax.jit, static_argnums=(0,))
    def shift(self, x):
        return x + self.offsets


class Env:
    def __init__(self, num_allies, width, layout):
        self.num_allies = num_allies
        self.width = width
        self.positions = Distribution(self.num_allies, self.width)
        self.planner = Planner([cell == 0 for cell in layout])
        self.helper = Helper()


class Mixed:
    def __init__(self, n_allies, width):
        self.n_allies = n_allies
        self.first = Distribution(n_allies, width)
