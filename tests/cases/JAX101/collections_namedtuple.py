# A collections.namedtuple is immutable and hashes by value: static-safe.
# Checked under jax 0.10.2: P(2) then P(3) give 2 then 3. The binding is not a class jaxcheck can judge.
import collections
from collections import namedtuple
import jax

Config = namedtuple("Config", ["num_wheels", "name"])
Other = collections.namedtuple("Other", "a b")

@jax.jit(static_argnums=(0, 1))
def f(cfg: Config, other: Other, x):
    return x * cfg.num_wheels + other.a

cfg = Config(2, "car")
f(cfg, Other(1, 2), 1.0)
