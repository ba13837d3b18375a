# A subclass of an eqx.Module is a pytree too, so JAX can trace its `self`.
import equinox as eqx
import jax

class Base(eqx.Module):
    factor: jax.Array

class Scaler(Base):
    @jax.jit
    def scale(self, y):
        return self.factor * y
