# A non-frozen `@dataclass` over a base jaxcheck does not know: the base may have made the class a
# dataclass already and written a hash (flax linen does), so `@dataclass` keeps it. Checked with
# flax 0.12.8 / jax 0.10.2: `run(Scale(3.0), x)` gives [3. 3.], no error. Judged as linen builds it: not flagged.
import dataclasses
from functools import partial

import flax.linen as nn
import jax


@dataclasses.dataclass
class Scale(nn.Module):
    k: float = 2.0

    def __call__(self, x):
        return x * self.k


@partial(jax.jit, static_argnums=0)
def run(module: Scale, x):
    return module.apply({}, x)
