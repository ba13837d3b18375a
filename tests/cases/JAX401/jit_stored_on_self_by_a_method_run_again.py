# `restart()`, offered to users (who call it once per design), calls `set_optimizer()`, which jits a nested closure and stores it on `self`
# in place of the last one: every restart traces and compiles `update` again.
import jax
import optax


class Designer:
    def __init__(self, params):
        self._params = params

    def restart(self, learning_rate=0.1):
        self.set_optimizer(learning_rate)

    def set_optimizer(self, learning_rate):
        opt = optax.sgd(learning_rate)
        self._state = opt.init(self._params)

        def update(state, grad):
            updates, state = opt.update(grad, state)
            return state, updates

        self._update = jax.jit(update)  # expect: JAX401

    def step(self, grad):
        self._state, updates = self._update(self._state, grad)
        self._params = optax.apply_updates(self._params, updates)
