# A function defined once per run of `main`, jitted again in a helper `main` calls often: the same object, one cache.
# jax 0.10.2 and 0.12.0.1: `sample` called 3 times traces `decode` once.
import jax


def main(xs):
    def decode(x):
        return x * 2

    def sample(x):
        return jax.jit(decode)(x)

    return [sample(x) for x in xs]
