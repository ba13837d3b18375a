# A flax linen module is a dataclass hashed by its fields: given a list, it cannot be a static argument (jax.jit
# raises). Given a tuple, or passed where the function traces its arguments, it is fine.
from functools import partial
from typing import Sequence

import flax.linen as nn
import jax


class MLP(nn.Module):
    features: Sequence[int]  # expect: JAX104

    @nn.compact
    def __call__(self, x):
        for size in self.features:
            x = nn.Dense(size)(x)
        return x


class Head(nn.Module):
    sizes: Sequence[int]

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.sizes[-1])(x)


@partial(jax.jit, static_argnums=0)
def forward(model, params, x):
    return model.apply(params, x)


def main(params, x):
    forward(MLP([4, 2]), params, x)
    forward(Head((4, 2)), params, x)
    return MLP((4, 2)).apply(params, x)
