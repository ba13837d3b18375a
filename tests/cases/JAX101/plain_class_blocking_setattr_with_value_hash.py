# A plain class that blocks `__setattr__` and hashes and compares by value is immutable and static-safe.
import jax

class Config:
    def __init__(self, num_wheels):
        object.__setattr__(self, "num_wheels", num_wheels)

    def __setattr__(self, name, value):
        raise AttributeError("Config is immutable")

    def __delattr__(self, name):
        raise AttributeError("Config is immutable")

    def __eq__(self, other):
        return type(other) is type(self) and other.num_wheels == self.num_wheels

    def __hash__(self):
        return hash((type(self), self.num_wheels))

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.num_wheels

f(Config(2), 1.0)
