# A public geometry users build themselves; its `with_size` copy does not make it a part of anything.
# jax 0.10.2 and 0.12.0.1: after a user's `geometry.size = 3`, `geometry.project(x)` still multiplies by the old size.
from functools import partial

import jax


class Geometry:  # expect: JAX101  # strict: JAX102
    def __init__(self, size, spacing):
        self.size = size
        self.spacing = spacing

    def with_size(self, size):
        return Geometry(size, self.spacing)

    @partial(jax.jit, static_argnums=(0,))
    def project(self, x):
        return x * self.size * self.spacing
