# An eqx static field given a new lambda per instance: models built alike still retrace.
# equinox 0.13.8: each Model(w, 2.0) holds a new lambda: 4 models built alike, 4 traces.
from typing import Callable

import equinox as eqx
import jax


def scale_by(v):
    return v * 2.0


class Model(eqx.Module):
    w: jax.Array
    act: Callable = eqx.field(static=True)  # expect: JAX304

    def __init__(self, w, scale):
        self.w = w
        self.act = lambda v: v * scale
