# The constructor is given an np.eye(2) but aux_data holds only its shape and dtype; the matrix is a child.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: a shape tuple and a numpy dtype compare by value,
# so two equal priors share 1 trace and give 1.0 each.
import jax
import jax.numpy as jnp
import numpy as np

TRACES = 0


@jax.tree_util.register_pytree_node_class
class Prior:
    def __init__(self, mu, rho, matrix):
        self.mu = mu
        self.rho = rho
        self.matrix = matrix

    def tree_flatten(self):
        return (self.mu, self.matrix), (self.rho, self.matrix.shape, self.matrix.dtype)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        rho, _, _ = aux_data
        mu, matrix = children
        return cls(mu, rho, matrix)


def make_prior(rho):
    matrix = np.eye(2)
    return Prior(jnp.ones(2), rho, matrix)


@jax.jit
def log_density(prior):
    global TRACES
    TRACES += 1
    return prior.rho * prior.mu @ prior.matrix @ prior.mu


print([float(log_density(make_prior(0.5))) for _ in range(2)], "traces", TRACES)
