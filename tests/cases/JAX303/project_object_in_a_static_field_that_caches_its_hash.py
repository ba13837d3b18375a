# A value-hashed project object in a static field that caches its hash in `__hash__`: a memo, not a change of value.
import dataclasses

import jax


class Space:
    def __init__(self, sizes):
        self._sizes = tuple(sizes)
        self._hash = None

    def __eq__(self, other):
        return isinstance(other, Space) and self._sizes == other._sizes

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(self._sizes)
        return self._hash


def key(value):
    return value.__hash__()  # the hash is asked for after the object is built


@dataclasses.dataclass
class Operator:
    x: jax.Array
    space: Space  # strict: JAX303


jax.tree_util.register_dataclass(Operator, data_fields=["x"], meta_fields=["space"])


@jax.jit
def apply(op):
    return op.x * len(op.space._sizes)
