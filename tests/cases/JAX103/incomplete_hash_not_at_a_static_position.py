# An incomplete hash matters only where JAX keys a cache on it: not a plain function, nor custom_jvp's nondiff_argnums.
import functools

import jax


class Config:
    def __init__(self, a, b):
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    def __setattr__(self, name, value):
        raise AttributeError("Config is immutable")

    def __delattr__(self, name):
        raise AttributeError("Config is immutable")

    def __hash__(self):
        return hash(self.a)

    def __eq__(self, other):
        return type(other) is type(self) and other.a == self.a


def plain(x, cfg):
    return x * (cfg.a + cfg.b)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def f(x, cfg):
    return x * (cfg.a + cfg.b)


@f.defjvp
def f_jvp(cfg, primals, tangents):
    (x,), (t,) = primals, tangents
    return f(x, cfg), t * (cfg.a + cfg.b)


plain(1.0, Config(1, 2))
f(1.0, Config(1, 2))
jax.grad(f)(1.0, Config(1, 3))
# static_argnums: named, so the pre-filter passes the file to the rules
