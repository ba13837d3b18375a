# A class defined twice (a notebook cell run again, edited): only the second one's method calls the jitted function.
# jax 0.10.2 and 0.12.0.1: `LENGTH = 4` runs before `sample` exists; both calls after it read 4: 4.0, right.
import jax


class Sampler:
    def run(self, x):
        return x


print(Sampler().run(1.0))
LENGTH = 4


@jax.jit
def sample(x):
    return x * LENGTH


class Sampler:  # noqa: F811 - the cell defined again
    def run(self, x):
        return sample(x)


print(Sampler().run(1.0), Sampler().run(1.0))
