# A public `__call__` vmaps a nested step into a local, then jits that local: both are new objects on every call.
# jax 0.10.2: 4 calls of `Trainer()(x)` trace and compile `_train_step` 4 times.
import jax


class Trainer:
    def __init__(self, epochs):
        self.epochs = epochs

    def __call__(self, params):
        def _train_step(p):
            return p * 0.5

        train_step = jax.vmap(_train_step)
        train_step = jax.jit(train_step, donate_argnums=0)  # expect: JAX401
        for _ in range(self.epochs):
            params = train_step(params)
        return params

    def lazy(self, params):
        step = jax.vmap(lambda p: p + 1.0)
        return jax.jit(step)(params)  # expect: JAX401
