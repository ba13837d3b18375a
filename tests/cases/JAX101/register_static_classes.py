# Objects of classes registered with `jax.tree_util.register_static` are static at any position. A mutable one
# changed after the first call goes stale (jax 0.10.2 and 0.12.0.1); a frozen one and an unregistered plain
# class passed as a regular argument are fine (the latter is a pytree leaf jax.jit rejects, not a static value).
import dataclasses

import jax


class Settings:  # expect: JAX101  # strict: JAX102
    def __init__(self, scale):
        self.scale = scale


@jax.tree_util.register_static
@dataclasses.dataclass(frozen=True)
class Frozen:
    scale: float


class Plain:
    def __init__(self, scale):
        self.scale = scale


jax.tree_util.register_static(Settings)


@jax.jit
def step(x, settings):
    return x * settings.scale


def main():
    settings = Settings(2.0)
    step(1.0, settings)
    settings.scale = 3.0
    step(1.0, settings)
    step(1.0, Frozen(2.0))
    plain = Plain(2.0)
    plain.scale = 3.0
