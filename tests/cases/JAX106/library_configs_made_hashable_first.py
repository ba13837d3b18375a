# The same configs made hashable before they reach the static position, and a config function that may return
# something else: nothing is flagged.
from functools import partial
from typing import NamedTuple

import jax
import ml_collections
from omegaconf import OmegaConf


class Options(NamedTuple):
    scale: float


@partial(jax.jit, static_argnames=("cfg",))
def step(x, cfg):
    return x * cfg.scale


def get_config(frozen):
    config = ml_collections.ConfigDict({"scale": 2.0})
    if frozen:
        return ml_collections.FrozenConfigDict(config)
    return config


def main(path):
    step(1.0, cfg=ml_collections.FrozenConfigDict({"scale": 2.0}))
    step(1.0, cfg=Options(**OmegaConf.to_container(OmegaConf.load(path))))
    step(1.0, cfg=get_config(frozen=True))
