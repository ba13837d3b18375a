# A `__setattr__` that passes the write on blocks nothing: the class is mutable and changed after the call.
import jax

class Config:  # expect: JAX101
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)

    def __eq__(self, other):
        return type(other) is type(self) and other.num_wheels == self.num_wheels

    def __hash__(self):
        return hash((type(self), self.num_wheels))

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.num_wheels

cfg = Config(2)
f(cfg, 1.0)
cfg.num_wheels = 4
