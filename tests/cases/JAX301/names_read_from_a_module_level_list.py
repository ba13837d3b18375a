# The flatten reads attributes named by a module-level list, not by the class: jaxcheck does
# not follow it, and here the names are strings and numbers anyway (jax 0.10.2 and 0.12.0.1: 3.0, 3.0).
import jax
import jax.numpy as jnp

AUX = ("name", "order")


@jax.tree_util.register_pytree_node_class
class Poly:
    def __init__(self, x, name, order):
        self.x = x
        self.name = name
        self.order = order

    def tree_flatten(self):
        return (self.x,), tuple(getattr(self, n) for n in AUX)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(children[0], *aux_data)


@jax.jit
def total(poly):
    return jnp.sum(poly.x) * poly.order


print([float(total(Poly(jnp.ones(3), "p", 1))) for _ in range(2)])
