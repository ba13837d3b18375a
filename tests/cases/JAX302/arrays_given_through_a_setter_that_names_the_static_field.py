# Arrays reach a static field through a project setter that takes the field's name as a string
# (`copy.copy(self)` then `object.__setattr__(new, name, value)`): the second fitted model's
# dict of arrays is compared as metadata. jax 0.10.2, equinox 0.13.8: ValueError on the second call.
import copy
import dataclasses

import equinox as eqx
import jax.numpy as jnp


class Module(eqx.Module):
    def replace(self, name, value):
        field = next((f for f in dataclasses.fields(self) if f.name == name), None)
        if field is not None and field.metadata.get("static", False):
            new = copy.copy(self)
            object.__setattr__(new, name, value)
            return new
        return eqx.tree_at(lambda m: getattr(m, name), self, replace=value)


class Model(Module):
    weight: jnp.ndarray
    info: dict = eqx.field(default=None, static=True)  # expect: JAX302

    def __call__(self, x):
        return jnp.sum(self.weight * x)


def fit(model, x, steps=3):
    losses = []
    for _ in range(steps):
        losses.append(model(x))
    info = {"loss": jnp.stack(losses), "n_iter": steps}
    return model.replace("info", info)


@eqx.filter_jit
def predict(model, x):
    return model(x)


x = jnp.ones(3)
first, second = fit(Model(jnp.ones(3)), x), fit(Model(jnp.ones(3)), x)
print(predict(first, x))
print(predict(second, x))  # ValueError: static arguments should be comparable using __eq__
