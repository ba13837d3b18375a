# The closure tests `"mask" in self.opt` at trace time and the dict is not an argument: `set_mask` adds the
# key, but the cached program keeps the branch it traced without it (stale).
import jax
import jax.numpy as jnp


class Designer:
    def __init__(self):
        self.opt = {"scale": 1.0}
        self.mask = jnp.ones(3)

        def loss(params, scale):
            x = params * scale
            if "mask" in self.opt:
                x = x * 0.0
            return jnp.sum(x)

        self._fns = {"loss": jax.jit(loss)}  # expect: JAX203

    def set_mask(self, mask):
        self.opt["mask"] = mask

    def run(self, params):
        return self._fns["loss"](params, self.opt["scale"])
