# A sweep over a tuple written out in the code, through a name: each value compiles once, on purpose.
import functools

import jax

NUM_STEPS = (10, 100, 1_000, 10_000)


@functools.partial(jax.jit, static_argnums=1)
def rollout(key, num_steps):
    return jax.random.normal(key, (num_steps,)).sum()


def benchmark(key):
    sizes = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
    for n in NUM_STEPS:
        rollout(key, n)
    for n in sizes:
        rollout(key, n)
