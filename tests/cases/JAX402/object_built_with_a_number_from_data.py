# `fit` builds the static config with a weight computed from the data: `eqx.filter_jit` compiles once per call.
import equinox as eqx
import jax.numpy as jnp


class Penalty(eqx.Module):
    weight: float = 0.0


@eqx.filter_jit
def make_step(values, penalty):
    return values - penalty.weight * values


def fit(values, penalty=None, max_iter=50):
    cfg = penalty if penalty is not None else Penalty()
    if cfg.weight != 0.0:
        scale = jnp.abs(jnp.mean(values))
        cfg = Penalty(weight=float(cfg.weight * scale))
    for _ in range(max_iter):
        values = make_step(values, cfg)  # expect: JAX402
    return values
