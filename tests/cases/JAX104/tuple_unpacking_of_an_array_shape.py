# A static class unpacks the shape of an array into two ints: the fields hold no array.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: `self.rows, self.cols = np.asarray(m).shape`
# stores Python ints; two equal Grid objects share 1 trace and give 2 * 3 = 6.0.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

TRACES = 0


class Grid:
    def __init__(self, matrix):
        self.rows, self.cols = np.asarray(matrix).shape

    def __setattr__(self, name, value):
        if name in self.__dict__:
            raise AttributeError(name)
        object.__setattr__(self, name, value)

    def __hash__(self):
        return hash((self.rows, self.cols))

    def __eq__(self, other):
        return type(other) is type(self) and (self.rows, self.cols) == (other.rows, other.cols)

    @partial(jax.jit, static_argnums=0)
    def cells(self, x):
        global TRACES
        TRACES += 1
        return x * self.rows * self.cols


print([float(Grid(np.zeros((2, 3))).cells(jnp.float32(1.0))) for _ in range(2)], "traces", TRACES)
