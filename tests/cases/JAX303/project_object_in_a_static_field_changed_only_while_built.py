# A project object in a static field whose setter runs only while it is built: nothing changes it after a jit sees the tree.
import dataclasses

import jax


class Cfg:
    def __init__(self, scale):
        self.set_scale(scale)

    def set_scale(self, scale):
        self.scale = scale


@dataclasses.dataclass
class Holder:
    x: jax.Array
    cfg: Cfg


jax.tree_util.register_dataclass(Holder, data_fields=["x"], meta_fields=["cfg"])


@jax.jit
def f(h):
    return h.x * h.cfg.scale


def main():
    h = Holder(jax.numpy.ones(()), Cfg(2.0))
    return f(h)
