# A frozen dataclass with eq=False cannot change (no JAX101) but keeps object's identity hash: JAX102.
import jax
from dataclasses import dataclass

@dataclass(frozen=True, eq=False)
class Config:  # strict: JAX102
    num_wheels: int

@jax.jit(static_argnums=0)
def f(cfg: Config, x):
    return x * cfg.num_wheels

f(Config(2), 1.0)
