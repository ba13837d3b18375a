# nnx.jit_partial's static_argnums count the bound arguments: position 1 is `steps`, the call's first argument,
# so the list of weights, the call's second, is traced (a pytree), not a static list.
import jax.numpy as jnp
from flax import nnx


def step(model, steps, weights):
    total = 0.0
    for _ in range(steps):
        total = total + model(weights[0]).sum()
    return total


model = nnx.Linear(1, 1, rngs=nnx.Rngs(0))
run = nnx.jit_partial(step, model, static_argnums=1, graph_updates=False)
weights = [jnp.ones((1, 1))]
print(run(3, weights))
weights.append(jnp.zeros((1, 1)))
print(run(3, weights))
