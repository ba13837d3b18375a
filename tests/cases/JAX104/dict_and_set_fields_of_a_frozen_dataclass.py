# A frozen dataclass with a dict field and a set field (default_factory) used as a static argument.
# jax 0.10.2 and 0.12.0.1: the generated __hash__ hashes the dict, then the set: both calls raise
# `ValueError: Non-hashable static arguments are not supported`.
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Weights:
    scales: dict[str, float]  # expect: JAX104


@dataclasses.dataclass(frozen=True)
class Mask:
    n: int
    skip: set = dataclasses.field(default_factory=set)  # expect: JAX104


@jax.jit(static_argnums=1)
def weigh(x, cfg: Weights):
    return x * cfg.scales["a"]


@jax.jit(static_argnums=1)
def masked(x, cfg: Mask):
    return sum(x[i] for i in range(cfg.n) if i not in cfg.skip)


def main():
    try:
        print(float(weigh(jnp.float32(2.0), Weights({"a": 3.0}))))
    except ValueError as e:
        print(str(e).splitlines()[0][:55])
    try:
        print(float(masked(jnp.ones(3), Mask(3, {1}))))
    except ValueError as e:
        print(str(e).splitlines()[0][:55])


main()
