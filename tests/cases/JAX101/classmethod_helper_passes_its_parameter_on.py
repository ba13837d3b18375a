# A classmethod hands its `cfg` on to a static parameter; its callers pass `cls` implicitly, so the
# plain `Label` given second is `label`, never static, and changing it is harmless
# (jax 0.10.2 and 0.12.0.1: 4.0, 4.0, one trace).
import dataclasses
from functools import partial

import jax

TRACES = []


@dataclasses.dataclass(frozen=True)
class Config:
    scale: float


class Label:
    def __init__(self, text):
        self.text = text


@partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    TRACES.append(cfg.scale)
    return x * cfg.scale


class Runner:
    @classmethod
    def run(cls, cfg, label):
        print(label.text)
        return step(2.0, cfg=cfg)


label = Label("first")
first = Runner.run(Config(2.0), label)
label.text = "second"
print(first, Runner.run(Config(2.0), label), "traces", len(TRACES))
