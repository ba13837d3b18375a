# A mutable project object in a static field, changed by its setter after a jit saw the tree: 2.0 where 3.0 is right.
import dataclasses

import jax


class Cfg:
    def __init__(self, scale):
        self.scale = scale

    def set_scale(self, scale):
        self.scale = scale


@dataclasses.dataclass
class Holder:
    x: jax.Array
    cfg: Cfg  # expect: JAX303


jax.tree_util.register_dataclass(Holder, data_fields=["x"], meta_fields=["cfg"])


@jax.jit
def f(h):
    return h.x * h.cfg.scale


def main():
    h = Holder(jax.numpy.ones(()), Cfg(2.0))
    f(h)
    h.cfg.set_scale(3.0)
    return f(h)
