# A visualizer an application's `__init__` builds with its defaults: its tile size is what users pass or set (latent).
# jax 0.10.2: after `viz.tile_size = 16` the next `viz.render(x)` gives the image for 32 (identity hash: stale).
from functools import partial

import jax
import jax.numpy as jnp


class GridVisualizer:  # expect: JAX101  # strict: JAX102
    def __init__(self, tile_size=32, subdivs=3):
        self.window = None
        self.tile_size = tile_size
        self.subdivs = subdivs

    @partial(jax.jit, static_argnums=(0,))
    def render(self, grid):
        return jnp.repeat(grid, self.tile_size * self.subdivs, axis=0)


class Interactive:
    def __init__(self, layout, debug=False):
        self.layout = layout
        self.debug = debug
        self.viz = GridVisualizer()
