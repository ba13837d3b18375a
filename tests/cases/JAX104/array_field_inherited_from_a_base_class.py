# An array field inherited from a base class is a field of the static subclass: JAX raises the Non-hashable ValueError.
# Checked on jax 0.10.2: Sub(jnp.ones(2), 1) as a static argument raises the Non-hashable ValueError.
import dataclasses
import jax

@dataclasses.dataclass(frozen=True)
class Base:
    w: jax.Array  # expect: JAX104

@dataclasses.dataclass(frozen=True)
class Sub(Base):
    n: int

@jax.jit(static_argnums=0)
def f(model: Sub, x):
    return x * model.n

f(Sub(jax.numpy.ones(2), 1), 1.0)
