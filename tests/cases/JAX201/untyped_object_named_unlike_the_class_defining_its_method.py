# An untyped object whose name does not say it is a project class: `net.apply` may be a library module's `apply`
# (a flax module), though one project class also defines `apply`. An object the class builds itself is not one the
# caller hands in either. Neither is guessed.
import jax


class WrappedScaler:
    def __init__(self, scale):
        self.scale = scale

    def apply(self, x):
        return x * self.scale


class Agent:
    def __init__(self, net, network):
        self.net = net
        self._apply = jax.jit(self.net.apply)
        self.network = network(3)
        self._forward = jax.jit(self.network.apply)

    def act(self, x):
        return self._apply(x) + self._forward(x)
