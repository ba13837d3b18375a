# A configuration read from a file (JSON, YAML, TOML) is a dict: at a static position jax.jit raises. Its values
# taken out one by one are fine.
import json
import tomllib
from functools import partial

import jax
import yaml


@partial(jax.jit, static_argnames=("cfg",))
def step(x, cfg):
    return x


def main(path, text):
    with open(path) as stream:
        step(1.0, cfg=yaml.safe_load(stream))  # expect: JAX106
    step(1.0, cfg=json.loads(text))  # expect: JAX106
    with open(path, "rb") as stream:
        config = tomllib.load(stream)
    step(1.0, cfg=config)  # expect: JAX106
    step(1.0, cfg=config["width"])
