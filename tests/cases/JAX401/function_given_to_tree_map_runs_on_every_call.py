# Only the jit made per call is flagged: a function given to tree_map is called eagerly, not compiled.
# jax 0.10.2: tree_map calls `_scale` eagerly on every call of `step`: it is not traced code.
import jax


def _scale(leaf):
    return jax.jit(lambda v: v * 2)(leaf)  # expect: JAX401

def step(tree):
    return jax.tree_util.tree_map(_scale, tree)
