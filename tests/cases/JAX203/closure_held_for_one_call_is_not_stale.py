# A jitted closure over `self` made per call and used within that call never outlives a change of `self.scale`.
# jax 0.10.2: `f` is a new function on every call of `run`, and nothing in `run`
# changes `self.scale` between its two uses: never stale (the setter runs between calls).
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale

    def set_scale(self, scale):
        self.scale = scale

    def run(self, x):
        f = jax.jit(lambda v: v * self.scale)
        return f(f(x))
