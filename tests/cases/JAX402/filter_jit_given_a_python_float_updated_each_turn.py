# Under eqx.filter_jit every Python number is static: a learning rate that starts as a float and is decayed each
# turn (`lr = lr * 0.99`, `lr *= 0.99`) compiles every turn. One that starts as an array stays an array, traced.
import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def train_step(model, x, lr):
    return jax.tree_util.tree_map(lambda p: p - lr * x, model)


def train(model, x, steps):
    lr = 0.1
    for _ in range(steps):
        model = train_step(model, x, lr)  # expect: JAX402
        lr = lr * 0.99
    return model


def train_in_place(model, x, steps):
    lr = 1e-3
    for _ in range(steps):
        model = train_step(model, x, lr)  # expect: JAX402
        lr *= 0.99
    return model


def train_with_an_array(model, x, steps):
    lr = jnp.asarray(0.1)
    for _ in range(steps):
        model = train_step(model, x, lr)
        lr *= 0.99
    return model


def train_with_a_scale(model, x, steps, scale):
    lr = scale
    for _ in range(steps):
        model = train_step(model, x, lr)
        lr = lr * 0.99
    return model
