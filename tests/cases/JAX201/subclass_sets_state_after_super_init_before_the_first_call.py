# A subclass sets `_lr` in its own __init__ after the base class jitted `update`: still construction, before any trace.
# jax 0.10.2 and 0.12.0.1: jax.jit traces at the first call, after WarmSGD.__init__ set _lr = 0.05: update gives 0.95 every time.
import jax
import jax.numpy as jnp


class Optimizer:
    def __init__(self, lr: float):
        self._lr = lr
        self.update = jax.jit(self.update)

    def update(self, params, grads):
        return params - self._lr * grads


class WarmSGD(Optimizer):
    def __init__(self, lr: float):
        super().__init__(lr)
        self._lr = lr * 0.1


opt = WarmSGD(0.5)
for _ in range(2):
    print(float(opt.update(jnp.float32(1.0), jnp.float32(1.0))))
