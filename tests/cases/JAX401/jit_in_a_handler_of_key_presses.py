# A key handler registered with the window runs on every key press; `_step` jits the bound method of the env each time.
# jax 0.10.2 and 0.12.0.1: every key press traces and compiles `step_env` again.
import atexit

import jax


class Env:
    def step_env(self, key, state, action):
        return state + action


class InteractiveGame:
    def __init__(self, window):
        self.env = Env()
        self.window = window
        self.state = 0

    def run(self):
        self.window.reg_key_handler(self._handle_input)
        atexit.register(self._close)  # runs once, at exit

    def _close(self):
        jax.jit(self.env.step_env)(None, self.state, 0)

    def _handle_input(self, event):
        self._step(event.action)

    def _step(self, action):
        self.state = jax.jit(self.env.step_env)(None, self.state, action)  # expect: JAX401
