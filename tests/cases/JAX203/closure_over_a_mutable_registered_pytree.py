# A registered pytree closed over is no argument of the jitted lambda: its assigned state is compiled in and goes stale.
# jax 0.10.2: `self` is a free variable of the lambda, pytree or not: after set_scale(3.0) it still uses 2.0.
import jax
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Model:
    def tree_flatten(self):
        return (self.scale, self.bias), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(children[0])

    def __init__(self, scale):
        self.scale = scale
        self.bias = 1.0
        self._f = None

    def build(self, other):
        self._f = jax.jit(lambda x: x * self.scale)  # expect: JAX203

    def set_scale(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._f(x)
