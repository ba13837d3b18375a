# The index of `enumerate` is a Python int, static under `eqx.filter_jit`: one compilation per batch number.
import equinox as eqx


@eqx.filter_jit
def step(params, batch, index):
    return params - 0.01 * batch.mean() * index


def train(params, batches):
    for i, batch in enumerate(batches):
        params = step(params, batch, i)  # expect: JAX402
    return params
