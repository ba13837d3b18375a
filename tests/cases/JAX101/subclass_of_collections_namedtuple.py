# A subclass of a collections.namedtuple with empty `__slots__` stays immutable and value-hashed.
import collections
import jax

class Config(collections.namedtuple("ConfigBase", "num_wheels name")):
    __slots__ = ()

    def doubled(self):
        return 2 * self.num_wheels

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.doubled()

f(Config(2, "car"), 1.0)
