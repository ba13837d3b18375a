# The handler registered on a call result uses a jit made once in `__init__`: no JAX401.
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
        self._jitted_step = jax.jit(self.env.step_env)

    def run(self):
        self.viz.window().reg_key_handler(self._handle_input)

    def _handle_input(self, event):
        self.state = self._jitted_step(None, self.state, event.action)

    def _close(self):
        self.viz.window().close()
        jax.jit(self.env.step_env)(None, self.state, 0)
