# Methods inherited from a base leave out the field a subclass adds: reported where the methods are written.
# Sub adds `b`; the inherited methods compare `a` and the type only. Stale under
# jax 0.10.2: Sub(1, 2) then Sub(1, 3) gives 3.0, 3.0. Reported where the
# methods are written.
import jax

class Base:
    def __init__(self, a):
        object.__setattr__(self, "a", a)

    def __setattr__(self, name, value):
        raise AttributeError("immutable")

    def __hash__(self):  # expect: JAX103
        return hash((type(self), self.a))

    def __eq__(self, other):  # expect: JAX103
        return type(other) is type(self) and other.a == self.a

class Sub(Base):
    def __init__(self, a, b):
        super().__init__(a)
        object.__setattr__(self, "b", b)

@jax.jit(static_argnums=0)
def f(cfg: Sub, x):
    return x * cfg.a + cfg.b

f(Sub(1, 2), 1.0)
