# A module-level loop defines one function per activation and keeps its jit in a table:
# each jitted function is made once and called again later, so each compiles once
# (jax 0.10.2 and 0.12.0.1: 2 traces for 2 activations called twice each).
import jax
import jax.numpy as jnp

TRACES = [0]
STEPS = {}

for name, act in (("tanh", jnp.tanh), ("relu", jax.nn.relu)):
    def step(v, act=act):
        TRACES[0] += 1
        return act(v) * 2.0

    STEPS[name] = jax.jit(step)

for _ in range(2):
    for name in STEPS:
        STEPS[name](jnp.ones(3))
print(TRACES[0])
