# A geometry an operator's `__init__` builds from its own state is a part of the operator, and stays one though the
# geometry's own `with_size` makes changed copies of it: a copy is built from an object that exists, and whoever
# built the first (the operator) decides. Users change the operator, not `op.geometry.size`.
from functools import partial

import jax


class Geometry:  # strict: JAX101  # strict: JAX102
    def __init__(self, size, spacing):
        self.size = size
        self.spacing = spacing

    def with_size(self, size):
        return Geometry(size, self.spacing)

    @partial(jax.jit, static_argnums=(0,))
    def project(self, x):
        return x * self.size * self.spacing


class Operator:
    def __init__(self, shape, spacing):
        self.shape = shape
        self.geometry = Geometry(shape[0] * shape[1], spacing)
