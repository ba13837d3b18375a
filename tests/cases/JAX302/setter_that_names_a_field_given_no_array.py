# The same name setter, but what it puts in the static field is configuration (a string, a tuple
# of Python numbers), and the arrays it gives go to an ordinary field, a leaf; `str.replace`
# with the field's name is not the setter. jax 0.10.2, equinox 0.13.8: 3.0, 6.0, no error.
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
    info: tuple = eqx.field(default=None, static=True)
    label: str = eqx.field(default="", static=True)

    def __call__(self, x):
        return jnp.sum(self.weight * x)


def fit(model, x, steps=3):
    losses = [float(model(x)) for _ in range(steps)]
    model = model.replace("weight", jnp.full(3, 2.0))
    model = model.replace("label", "info".replace("info", "fitted"))
    return model.replace("info", (tuple(losses), steps))


@eqx.filter_jit
def predict(model, x):
    return model(x)


x = jnp.ones(3)
print(predict(Model(jnp.ones(3)), x))
print(predict(fit(Model(jnp.ones(3)), x), x))
