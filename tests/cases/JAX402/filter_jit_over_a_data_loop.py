# Under `eqx.filter_jit` the items of a data loop are arrays, which it traces: same-shaped batches share one compilation.
import equinox as eqx


@eqx.filter_jit
def step(params, batch):
    return params - 0.01 * batch.mean()


def train(params, batches):
    for batch in batches:
        params = step(params, batch)
    return params
