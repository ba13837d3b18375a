# A tuple of floats stored in __init__ cannot change in place: the fixed twin of an array field.
import jax
import jax.numpy as jnp
import numpy as np

class Model:
    def __init__(self, w, n):
        self.w = tuple(float(v) for v in np.asarray(w))
        self.n = n

    def __setattr__(self, name, value):
        if name in self.__dict__:
            raise AttributeError(name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise AttributeError(name)

    def __hash__(self):
        return hash((self.w, self.n))

    def __eq__(self, other):
        return type(other) is type(self) and (self.w, self.n) == (other.w, other.n)

@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x * jnp.asarray(model.w) * model.n

f(Model([1.0, 2.0], 2), 1.0)
