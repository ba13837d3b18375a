# An object built in __post_init__ outside the dataclass fields is derived state the static key never compares.
# `inner` is not a dataclass field: the generated `==` never compares it, and `f` never reads it.
import dataclasses
import jax

class Inner:
    def __init__(self):
        self.k = 1

@dataclasses.dataclass(frozen=True)
class Model:
    n: int

    def __post_init__(self):
        object.__setattr__(self, "inner", Inner())

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x * model.n

f(Model(1), 1.0)
