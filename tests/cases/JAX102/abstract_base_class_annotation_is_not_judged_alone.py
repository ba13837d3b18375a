# An abc.ABC annotation says nothing about the values passed: the frozen subclass given is static-safe.
# jax 0.10.2: it runs, and a second call with an equal value hits the cache (`_cache_size()` stays 1).
import abc
from dataclasses import dataclass
from functools import partial
import jax

class Activation(abc.ABC):
    @abc.abstractmethod
    def __call__(self, x): ...

@dataclass(frozen=True)
class Relu(Activation):
    slope: float = 0.0

    def __call__(self, x):
        return x * self.slope

@partial(jax.jit, static_argnames="act")
def apply(x, act: Activation):
    return act(x)

apply(1.0, act=Relu())
