# jax.jit(jax.vmap(lambda x: self.kernel(x))) where kernel reads the private `self._scale`, set once in __init__ and never assigned again.
# jax 0.10.2 and 0.12.0.1: the baked-in scale stays right; a new scale means a new Smoother, traced anew: 2.28, then 4.57.
import jax
import jax.numpy as jnp


class Smoother:
    def __init__(self, scale: float):
        self._scale = scale
        self._step = jax.jit(jax.vmap(lambda x: self.kernel(x)))

    def kernel(self, x):
        return jnp.tanh(x) * self._scale

    def __call__(self, xs):
        return self._step(xs)


print(float(Smoother(1.0)(jnp.ones(3)).sum()))
print(float(Smoother(2.0)(jnp.ones(3)).sum()))
