# `self.stages = stages or []` is a list, but tree_flatten puts `tuple(self.stages)` in aux: a fresh, hashable copy.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: after `pipe.add("inc")` the next flatten gives an
# unequal aux tuple, jit compiles again and returns 7.0 (6.0, then 7.0; 2 traces).
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class

TRACES = 0


@register_pytree_node_class
class Pipeline:
    def __init__(self, x, scale=1.0, stages=None):
        self.x = x
        self.scale = scale
        self.stages = stages or []

    def add(self, stage):
        self.stages.append(stage)

    def tree_flatten(self):
        return (self.x,), (self.scale, tuple(self.stages))

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        scale, stages = aux_data
        return cls(children[0], scale, list(stages))


@jax.jit
def run(pipe):
    global TRACES
    TRACES += 1
    y = pipe.x * pipe.scale
    for stage in pipe.stages:
        y = y * 2 if stage == "double" else y + 1
    return y


pipe = Pipeline(jnp.float32(3.0))
pipe.add("double")
first = float(run(pipe))
pipe.add("inc")
print(first, float(run(pipe)), "traces", TRACES)
