# `jax.jit(prim.bind)` after the calls that set the primitive up: they run once, before the jit, and nothing changes it after.
# jax 0.10.2 and 0.12.0.1: every call of the jitted `bind` runs the one implementation set before the jit.
import jax


class Primitive:
    def __init__(self, name):
        self.name = name
        self.impl = None

    def def_impl(self, impl):
        self.impl = impl
        return impl

    def bind(self, x):
        return self.impl(x)


def make_double():
    double_p = Primitive("double")
    double_p.def_impl(lambda x: x * 2)
    double = jax.jit(double_p.bind)
    return double


double = make_double()
print(double(1.0), double(2.0))
