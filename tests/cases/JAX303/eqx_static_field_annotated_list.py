# An eqx static field annotated `list` holds the caller's list: changed in place, the cached key changes and jit is stale.
# equinox 0.13.8: after the caller's list is appended to, jit gives 3.0 again where 13.0 is right.
import equinox as eqx
import jax


def scale_by(v):
    return v * 2.0


class Model(eqx.Module):
    w: jax.Array
    xs: list = eqx.field(static=True)  # strict: JAX303
