# `jax.jit(jax.vmap(f))` made in a public function of a library: `vmap` returns a new function each time, a new cache.
# jax 0.10.2 and 0.12.0.1: `move_all(p)` called 3 times with the same shapes traces 3 times, where 1 is needed.
import jax


def _move(position, step):
    return position + step


def move_all(positions, steps):
    return jax.jit(jax.vmap(_move))(positions, steps)  # expect: JAX401

