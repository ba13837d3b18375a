# `tuple(sizes)` carries the argument's state as much as `sizes` does: leaving it out is stale.
# `tuple(sizes)` carries the argument's state as much as `sizes` does. Stale
# under jax 0.10.2: Config(1, [2]) then Config(1, [3]) gives 3.0, 3.0.
import jax

class Config:
    def __init__(self, a, sizes):
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "sizes", tuple(sizes))

    def __setattr__(self, name, value):
        raise AttributeError("immutable")

    def __hash__(self):  # expect: JAX103
        return hash(self.a)

    def __eq__(self, other):  # expect: JAX103
        return type(other) is type(self) and other.a == self.a

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.a + sum(cfg.sizes)

f(Config(1, [2]), 1.0)
