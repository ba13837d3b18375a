# A library's public factory builds a flax struct whose static field gets a new lambda per call:
# two problems built alike have unequal tree structures, so the jitted solve compiles for each.
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Cost:
    args: jax.Array
    residual: object = struct.field(pytree_node=False)


def make_cost(args, scale):
    return Cost(args=args, residual=lambda x: x * scale)  # expect: JAX304


@jax.jit
def solve(cost):
    return cost.residual(cost.args).sum()


def residual_sum(values):
    return solve(make_cost(jnp.asarray(values), 2.0))
