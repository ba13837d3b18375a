# Items of module-level registries at a static position: a dict or list item raises in jax.jit; a tuple, a
# function, a string, or a registry rebound (so which value it holds is not known) is not flagged.
from functools import partial

import jax


def relu(x):
    return x


PRESETS = {"small": {"width": 2}, "deep": [64, 64, 64], "pair": (2, 3), "name": "small"}
ACTIVATIONS = {"relu": relu}
OVERRIDES = {"small": {"width": 2}}
OVERRIDES = {"small": (("width", 2),)}


@partial(jax.jit, static_argnames=("cfg",))
def step(x, cfg):
    return x


def main(x):
    step(x, cfg=PRESETS["small"])  # expect: JAX106
    step(x, cfg=PRESETS["deep"])  # expect: JAX106
    step(x, cfg=PRESETS["pair"])
    step(x, cfg=PRESETS["name"])
    step(x, cfg=ACTIVATIONS["relu"])
    step(x, cfg=OVERRIDES["small"])
    step(x, cfg=PRESETS["missing"])
