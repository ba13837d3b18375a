# The jitted step calls a helper that reads a module-level dict; `CONFIG.update(...)` after the first call is not seen.
# jax 0.10.2 and 0.12.0.1: step(1.0) gives 0.9, and 0.9 again after CONFIG.update(lr=0.5), where 0.5 is right.
import jax
import jax.numpy as jnp

CONFIG = {"lr": 0.1}


def learning_rate():
    return CONFIG["lr"]


@jax.jit
def step(w):
    return w - learning_rate() * w


print(float(step(jnp.float32(1.0))))
CONFIG.update(lr=0.5)  # expect: JAX204
print(float(step(jnp.float32(1.0))))
