# A class attribute read by a jitted function is compiled in like a global: `Config.scale = 3.0` after the first
# call leaves later calls with 2.0. Set before the first call, read outside the trace, or set on an instance (which
# leaves the class attribute as it was), it changes nothing compiled.
import jax


class Config:
    scale = 2.0
    shift = 1.0
    steps = 3


@jax.jit
def scaled(x):
    return x * Config.scale + Config.shift


def run(x):
    first = scaled(x)
    Config.scale = 3.0  # expect: JAX204
    return first, scaled(x)


def configure_then_run(x):
    Config.shift = 0.5
    return scaled(x)


def loop(x):
    for _ in range(Config.steps):
        x = scaled(x)
    Config.steps = 5
    return x


def on_an_instance(x):
    config = Config()
    first = scaled(x)
    config.scale = 4.0
    return first, scaled(x)
