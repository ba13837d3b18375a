# A public `train` runs its setup helpers once per run: a jit made there and reused in the run is not made per call of anything that repeats.
import jax


def meta_init(loss, params, steps):
    update = jax.jit(jax.grad(loss))
    for _ in range(steps):
        params = params - 0.1 * update(params)
    return params


def train(loss, params, steps):
    return meta_init(loss, params, steps)
