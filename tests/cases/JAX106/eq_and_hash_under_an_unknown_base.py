# Its own `__eq__` and `__hash__` over the same field, under a base jaxcheck does not know: hashable.
from functools import partial

import jax
from somelib import Base


class Options(Base):
    def __init__(self, k):
        self.k = k

    def __eq__(self, other):
        return isinstance(other, Options) and self.k == other.k

    def __hash__(self):
        return hash(self.k)


@partial(jax.jit, static_argnums=1)
def run(x, opts: Options):
    return x * opts.k
