# The base's flatten puts the attributes named by `aux_fields` in aux_data; `Tagged` names
# `stages`, a list that `add` grows after the first call. JAX keeps the list by reference in its
# cache key, so the grown list still equals the key and the stale function is reused
# (jax 0.10.2 and 0.12.0.1: 6.0 then 6.0, where 7.0 is right).
import jax
import jax.numpy as jnp


class Node:
    aux_fields = ()

    def tree_flatten(self):
        return (self.x,), tuple(getattr(self, n) for n in self.aux_fields)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        obj = object.__new__(cls)
        obj.__dict__.update(zip(("x",) + cls.aux_fields, (*children, *aux_data)))
        return obj


@jax.tree_util.register_pytree_node_class
class Tagged(Node):
    aux_fields = ("stages",)  # expect: JAX303

    def __init__(self, x):
        self.x = x
        self.stages = []

    def add(self, stage):
        self.stages.append(stage)


@jax.jit
def run(node):
    y = node.x
    for stage in node.stages:
        y = y * 2 if stage == "double" else y + 1
    return y


node = Tagged(jnp.float32(3.0))
node.add("double")
print(float(run(node)))
node.add("inc")
print(float(run(node)))
