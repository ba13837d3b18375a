# Being a registered pytree does not help: a bound method's `self` is no argument of the jitted function.
# jax 0.10.2: a bound method's `self` is no argument of the jitted function, pytree or not: 6, then 6.
import jax
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def tree_flatten(self):
        return (self.x,), self.mul

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children, aux_data)

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

def main():
    c = CustomClass(2, True)
    f = jax.jit(c.calc)  # expect: JAX201
    f(3)
    c.mul = False
    return f(3)
