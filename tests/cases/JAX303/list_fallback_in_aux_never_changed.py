# `self.stages = stages if stages is not None else []` puts a list in aux_data, but nothing
# changes it after construction: JAX compares aux_data with `==` and the cached entry stays
# right (jax 0.10.2 and 0.12.0.1: 6.0, then 7.0 for a new Pipeline with one more stage).
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Pipeline:
    def __init__(self, x, scale=1.0, stages=None):
        self.x = x
        self.scale = scale
        self.stages = stages if stages is not None else []

    def tree_flatten(self):
        return (self.x,), (self.scale, self.stages)  # strict: JAX303

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(children[0], *aux_data)


@jax.jit
def run(pipe):
    y = pipe.x * pipe.scale
    for stage in pipe.stages:
        y = y * 2 if stage == "double" else y + 1
    return y


print(float(run(Pipeline(jnp.float32(3.0), stages=["double"]))))
print(float(run(Pipeline(jnp.float32(3.0), stages=["double", "inc"]))))
