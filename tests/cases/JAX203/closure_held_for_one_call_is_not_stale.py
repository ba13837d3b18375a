# A jitted closure over `self` made per call and used within that call never outlives a change of `self.scale`.
# jax 0.10.2: `f` is a new function on every call of `run`, and nothing in `run`
# changes `self.scale` between its two uses: never stale (the setter runs between calls). It is a
# new cache on every call of the public `run`, though: one compilation per call (JAX401).
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale

    def set_scale(self, scale):
        self.scale = scale

    def run(self, x):
        f = jax.jit(lambda v: v * self.scale)  # expect: JAX401
        return f(f(x))
