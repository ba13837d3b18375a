# aux holds the object given to __init__; changed in place later, the cached key changes with it: stale.
# jax 0.10.2: aux holds the same Config object; changed in place, the cached key changes with it: stale.
from jax.tree_util import register_pytree_node_class

class Config:
    def __init__(self, scale):
        self.scale = scale

@register_pytree_node_class
class Box:
    def __init__(self, x, cfg: Config):
        self.x = x
        self.cfg = cfg

    def tree_flatten(self):
        return (self.x,), self.cfg  # strict: JAX303

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, aux)

box = Box(1.0, Config(2.0))
box.cfg.scale = 3.0
cfg = Config(1.0)
cfg.scale = 4.0
