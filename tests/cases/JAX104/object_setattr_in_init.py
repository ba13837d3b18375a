# An array stored by `object.__setattr__` in __init__ of a static plain class, hashed by its contents: the design standard forbids it.
import jax
import jax.numpy as jnp

class Model:
    def __init__(self, w, n):
        object.__setattr__(self, "w", jnp.asarray(w))  # strict: JAX104
        object.__setattr__(self, "n", n)

    def __setattr__(self, name, value):
        raise AttributeError(name)

    def __delattr__(self, name):
        raise AttributeError(name)

    def __hash__(self):
        return hash((tuple(self.w.tolist()), self.n))

    def __eq__(self, other):
        return type(other) is type(self) and (tuple(self.w.tolist()), self.n) == (tuple(other.w.tolist()), other.n)

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x * model.n

f(Model([1.0], 2), 1.0)
