# A static field given a lambda at construction, but the program builds its one object once, in
# `main`, and passes that same object on every step: one structure, one compilation.
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Model:
    w: jax.Array
    act: object = struct.field(pytree_node=False)


@jax.jit
def step(model, x):
    return model.act(model.w * x)


def main():
    model = Model(w=jnp.ones(3), act=lambda v: v * 2.0)
    for i in range(10):
        step(model, float(i))


if __name__ == "__main__":
    main()
