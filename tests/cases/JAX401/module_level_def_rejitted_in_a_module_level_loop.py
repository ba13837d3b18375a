# A function defined once at module level and re-jitted on every turn of a module-level loop keeps one cache.
# jax 0.10.2 and 0.12.0.1: jit finds its cache again for the same function object: 4 turns, 1 trace.
import jax
import jax.numpy as jnp

TRACES = [0]
CONFIGS = [{"lr": 0.1}, {"lr": 0.2}, {"lr": 0.3}, {"lr": 0.4}]


def body(v, lr):
    TRACES[0] += 1
    return v - lr * jnp.tanh(v)


x = jnp.ones(3)
for cfg in CONFIGS:
    jax.jit(body)(x, cfg["lr"])
print("traces", TRACES[0])
