# eqx.partition whose dynamic half takes the name of the model it splits: no field of Model is unhashable, and the self-reference is followed once.
import jax
import equinox as eqx
import jax.numpy as jnp


class Model(eqx.Module):
    w: jax.Array

    def __call__(self, x):
        return self.w * x


def step(params, static, x):
    model = eqx.combine(params, static)
    return model(x)


fast = jax.jit(step, static_argnums=1)


def run(model, x):
    model, static = eqx.partition(model, eqx.is_array)
    return fast(model, static, x)


run(Model(jnp.ones(3)), jnp.ones(3))
