# `self.layers = layers or []` holds arrays and is returned as children, not aux: jit traces them.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: new weights of the same shapes reuse 1 trace
# and give their own results (6.0, then 12.0).
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class

TRACES = 0


@register_pytree_node_class
class Stack:
    def __init__(self, layers=None, name="stack"):
        self.layers = layers or []
        self.name = name

    def tree_flatten(self):
        return (self.layers,), self.name

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(children[0], aux_data)


@jax.jit
def apply(stack, x):
    global TRACES
    TRACES += 1
    for w in stack.layers:
        x = x * w
    return x


x = jnp.float32(1.0)
a = float(apply(Stack([jnp.float32(2.0), jnp.float32(3.0)]), x))
b = float(apply(Stack([jnp.float32(4.0), jnp.float32(3.0)]), x))
print(a, b, "traces", TRACES)
