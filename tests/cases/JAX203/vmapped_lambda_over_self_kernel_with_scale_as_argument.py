# The jitted, vmapped lambda calls `self.kernel` but gets the changing scale as an argument: nothing of `self` is baked in.
# jax 0.10.2 and 0.12.0.1: kernel reads no attribute of self; after `sm.scale = 2.0` the same program gives 4.57 where 2.28 was.
import jax
import jax.numpy as jnp


class Smoother:
    def __init__(self, scale: float):
        self.scale = scale
        self._step = jax.jit(jax.vmap(lambda x, s: self.kernel(x, s), in_axes=(0, None)))

    def kernel(self, x, s):
        return jnp.tanh(x) * s

    def __call__(self, xs):
        return self._step(xs, self.scale)


sm = Smoother(1.0)
print(float(sm(jnp.ones(3)).sum()))
sm.scale = 2.0
print(float(sm(jnp.ones(3)).sum()))
