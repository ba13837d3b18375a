# A public op makes a `@jax.custom_vjp` with jitted rules on every call; the library calls it two calls deep, the tests call it themselves.
# jax 0.10.2: 3 eager `jax.grad` calls of `scaled_matmul` trace and compile `_fwd` and `_bwd` 3 times each, where 1 is needed.
import jax
import jax.numpy as jnp
import pytest


def scaled_matmul(x, w, *, scale):
    @jax.jit  # expect: JAX401
    def _fwd(x, w):
        return (x @ w) * scale, (x, w)

    @jax.custom_vjp
    def _matmul(x, w):
        return (x @ w) * scale

    @jax.jit  # expect: JAX401
    def _bwd(res, g):
        x, w = res
        return (g * scale) @ w.T, x.T @ (g * scale)

    _matmul.defvjp(_fwd, _bwd)
    return _matmul(x, w)


class Dense:
    def __init__(self, scale):
        self.scale = scale

    def project(self, x, w):
        return scaled_matmul(x, w, scale=self.scale)

    def __call__(self, x, w):
        return self.project(x, w)


@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_grad(scale):
    x, w = jnp.ones((2, 3)), jnp.ones((3, 4))
    jax.grad(lambda x: scaled_matmul(x, w, scale=scale).sum())(x)
    assert scaled_matmul(x, w, scale=scale).shape == (2, 4)


def test_forward():
    assert scaled_matmul(jnp.ones((2, 3)), jnp.ones((3, 4)), scale=1.0).shape == (2, 4)
