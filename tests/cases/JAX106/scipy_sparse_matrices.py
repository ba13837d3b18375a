# A scipy sparse matrix has no hash: at a static position jax.jit raises. Its shape, or the matrix given where the
# function takes arrays, is fine.
from functools import partial

import jax
import scipy.sparse as sp
from scipy import sparse


@partial(jax.jit, static_argnums=1)
def apply(x, structure):
    return x * structure.shape[0]


def main(x):
    apply(x, sp.eye(3))  # expect: JAX106
    adjacency = sparse.csr_array((3, 3))
    apply(x, adjacency)  # expect: JAX106
    apply(x, adjacency.shape)
    apply(adjacency.data, 3)
