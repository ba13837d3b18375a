# The key handler is registered on the window a call returns; `_step` jits the env's bound method on every key press.
import jax


class Env:
    def step_env(self, key, state, action):
        return state + action


class Viz:
    def window(self):
        return self

    def reg_key_handler(self, handler):
        self.handler = handler


class InteractiveGame:
    def __init__(self):
        self.env = Env()
        self.viz = Viz()
        self.state = 0

    def run(self):
        self.viz.window().reg_key_handler(self._handle_input)

    def _handle_input(self, event):
        self._step(event.action)

    def _step(self, action):
        self.state = jax.jit(self.env.step_env)(None, self.state, action)  # expect: JAX401
