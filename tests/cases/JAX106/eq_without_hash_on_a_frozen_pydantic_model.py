# A frozen pydantic model with its own `__eq__` and no `__hash__`: pydantic's metaclass writes a hash
# (checked with pydantic 2.13: `hash(M(k=1))` works), so the model is a valid static argument.
# jaxcheck knows a frozen pydantic model hashes by value: nothing is flagged in either profile.
from functools import partial

import jax
import pydantic


class Options(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(frozen=True)
    k: int

    def __eq__(self, other):
        return isinstance(other, Options) and self.k == other.k


@partial(jax.jit, static_argnums=1)
def run(x, opts: Options):
    return x * opts.k
