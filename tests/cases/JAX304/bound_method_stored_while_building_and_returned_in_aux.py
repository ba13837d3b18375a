# unflatten runs __init__ again, so a bound method stored there is new for each object: jit retraces.
# jax 0.10.2: unflatten runs __init__ again, so each new object holds a new bound method: 4 traces of 4.
from jax.tree_util import register_pytree_node_class

@register_pytree_node_class
class Act:
    def __init__(self, w):
        self.w = w
        self.act = self.relu

    def relu(self, v):
        return v

    def tree_flatten(self):
        return (self.w,), self.act  # expect: JAX304

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)
