# Library configs that define `__eq__` without `__hash__`, at a static position of jax.jit: each call raises
# `ValueError: Non-hashable static arguments are not supported` (checked on jax 0.10.2 and 0.12.0.1 with
# ml_collections 1.1, omegaconf 2.3 and fiddle 0.3.1).
from functools import partial

import fiddle as fdl
import jax
import ml_collections
from ml_collections import config_dict
from omegaconf import OmegaConf


@partial(jax.jit, static_argnames=("cfg",))
def step(x, cfg):
    return x * cfg.scale


def make(scale=1.0):
    return scale


def load_config(path):
    return OmegaConf.load(path)


def main(path):
    step(1.0, cfg=ml_collections.ConfigDict({"scale": 2.0}))  # expect: JAX106
    step(1.0, cfg=config_dict.create(scale=2.0))  # expect: JAX106
    merged = OmegaConf.merge(load_config(path), OmegaConf.from_cli())
    step(1.0, cfg=merged)  # expect: JAX106
    step(1.0, cfg=load_config(path))  # expect: JAX106
    step(1.0, cfg=fdl.Config(make, scale=2.0))  # expect: JAX106
