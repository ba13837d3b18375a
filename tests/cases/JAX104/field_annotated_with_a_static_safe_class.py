# A field annotated with a frozen dataclass holds a static-safe value.
import dataclasses
import jax

@dataclasses.dataclass(frozen=True)
class Inner:
    k: int

@dataclasses.dataclass(frozen=True)
class Model:
    inner: Inner
    n: int

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x * model.n * model.inner.k

f(Model(Inner(3), 2), 1.0)
