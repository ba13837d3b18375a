# An `eqx.Module` subclass hashing a few fields keeps Equinox's `__eq__`, which compares every field: no stale hit.
# equinox 0.13.8, jax 0.10.2: two scenes whose frames differ only in `channels` compile twice under filter_jit, each right.
import equinox as eqx
import jax.numpy as jnp


class Module(eqx.Module):
    registry_key: str = eqx.field(init=False, default="")


class Frame(Module):
    size: int
    channels: tuple

    def __init__(self, size, channels=None):
        self.size = size
        self.channels = tuple(channels or ("r", "g"))

    def __hash__(self):  # fewer fields than Equinox's `__eq__` compares: equal frames still hash equal
        return hash(self.size)


class Scene(Module):
    frame: Frame

    def __init__(self, frame):
        self.frame = frame


@eqx.filter_jit
def render(x, scene):
    return jnp.ones((scene.frame.size, len(scene.frame.channels))) * x


render(1.0, Scene(Frame(2)))
render(1.0, Scene(Frame(2, ("r", "g", "b"))))
