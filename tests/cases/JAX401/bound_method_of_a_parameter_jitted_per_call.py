# A handler jits a method of the environment it is given on every key press: a new bound method, a new cache each time.
# jax 0.10.2 and 0.12.0.1: `on_key(env, x)` pressed 3 times traces `Env.step` 3 times, where 1 is needed.
import jax


def on_key(env, x):
    return jax.jit(env.step)(x)  # expect: JAX401


def on_keys(env, xs):
    return [on_key(env, x) for x in xs]
