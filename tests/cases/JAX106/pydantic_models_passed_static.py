# pydantic models at a static position: one without `frozen=True` has no `__hash__` and jax.jit raises (checked
# with pydantic 2 on jax 0.10.2 and 0.12.0.1; `allow_mutation = False` alone leaves a model unhashable); frozen
# ones (`model_config`, an inner `Config`, a base's options, which pydantic merges) hash by value; options
# jaxcheck cannot read are not guessed.
from functools import partial

import jax
import pydantic


class Mutable(pydantic.BaseModel):  # expect: JAX106
    scale: float = 2.0


class MutableByConfig(pydantic.BaseModel):  # expect: JAX106
    model_config = pydantic.ConfigDict(extra="forbid")
    scale: float = 2.0


class Frozen(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(frozen=True)
    scale: float = 2.0


class FrozenV1(pydantic.BaseModel):
    scale: float = 2.0

    class Config:
        frozen = True


class ImmutableButUnhashable(pydantic.BaseModel):  # expect: JAX106
    scale: float = 2.0

    class Config:
        allow_mutation = False


class FrozenByBase(Frozen):
    model_config = pydantic.ConfigDict(extra="forbid")


class FrozenBySplat(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(**SPLAT)
    scale: float = 2.0


class FrozenByKeyword(pydantic.BaseModel, frozen=True):
    scale: float = 2.0


class Unknown(pydantic.BaseModel):
    model_config = SHARED_CONFIG
    scale: float = 2.0


SHARED_CONFIG = pydantic.ConfigDict(frozen=True)
SPLAT = dict(frozen=True)


@partial(jax.jit, static_argnames=("opts",))
def step(x, opts):
    return x * opts.scale


def main():
    for opts in (Mutable(), MutableByConfig(), Frozen(), FrozenV1(), FrozenByKeyword(), Unknown()):
        print(step(1.0, opts=opts))
    step(1.0, opts=ImmutableButUnhashable())
    step(1.0, opts=FrozenByBase())
    step(1.0, opts=FrozenBySplat())
    step(1.0, opts=Mutable())
    step(1.0, opts=MutableByConfig())
    step(1.0, opts=Frozen())
    step(1.0, opts=FrozenV1())
    step(1.0, opts=FrozenByKeyword())
    step(1.0, opts=Unknown())
