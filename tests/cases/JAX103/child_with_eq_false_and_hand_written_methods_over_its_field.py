# A dataclass child with eq=False writes its own __eq__ and __hash__ over the parent's field and its own.
# Correct JAX code, checked under jax 0.10.2 and 0.12.0.1: Child(1.0, 2.0) and Child(1.0, 3.0) are unequal
# keys: 3.0 then 4.0, right (2 traces).
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Base:
    a: float


@dataclass(frozen=True, eq=False)
class Child(Base):
    b: float

    def __eq__(self, other):
        return type(other) is type(self) and (self.a, self.b) == (other.a, other.b)

    def __hash__(self):
        return hash((type(self), self.a, self.b))


@partial(jax.jit, static_argnums=1)
def shift(x, cfg: Child):
    return x * cfg.a + cfg.b


x = jnp.float32(1.0)
print(float(shift(x, Child(1.0, 2.0))), float(shift(x, Child(1.0, 3.0))))
