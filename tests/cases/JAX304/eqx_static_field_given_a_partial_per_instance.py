# `functools.partial` compares by identity: an eqx static field given one per instance retraces.
# equinox 0.13.8: `functools.partial` compares by identity: 4 models built alike, 4 traces.
from functools import partial
from typing import Callable

import equinox as eqx
import jax


def scale_by(v):
    return v * 2.0


class Model(eqx.Module):
    w: jax.Array
    act: Callable = eqx.field(static=True)  # expect: JAX304

    def __init__(self, w):
        self.w = w
        self.act = partial(scale_by)
