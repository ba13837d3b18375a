# jax_dataclasses: a `jdc.Static` field given a new lambda by a decorator's inner factory, called
# for every cost a problem is built from: each rebuilt problem has a new structure and recompiles.
import jax
import jax_dataclasses as jdc


@jdc.pytree_dataclass
class Cost:
    compute_residual: jdc.Static[object]
    args: tuple


def factory(compute_residual):
    def inner(*args):
        return Cost(compute_residual=lambda values, args: compute_residual(values, *args), args=args)  # expect: JAX304

    return inner


@jdc.jit
def solve(cost, values):
    return cost.compute_residual(values, cost.args)
