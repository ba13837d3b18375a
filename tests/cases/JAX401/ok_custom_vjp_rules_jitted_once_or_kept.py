# Look-alikes of a per-call custom_vjp with jitted rules: the derivative is returned (kept), one test calls it once, or a run reuses its jit.
# jax 0.10.2: a kept `make_matmul(2.0)` traces its `_fwd` once for 3 `jax.grad` calls; `fit_scales` compiles `update` once per run (per case).
import jax
import jax.numpy as jnp
import pytest


def make_matmul(scale):
    @jax.jit
    def _fwd(x, w):
        return (x @ w) * scale, (x, w)

    @jax.custom_vjp
    def _matmul(x, w):
        return (x @ w) * scale

    @jax.jit
    def _bwd(res, g):
        x, w = res
        return (g * scale) @ w.T, x.T @ (g * scale)

    _matmul.defvjp(_fwd, _bwd)
    return _matmul  # the caller keeps it: its rules keep their caches


def scaled_matmul(x, w, *, scale):
    @jax.jit
    def _fwd(x, w):
        return (x @ w) * scale, (x, w)

    @jax.custom_vjp
    def _matmul(x, w):
        return (x @ w) * scale

    @jax.jit
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


def test_forward():
    assert scaled_matmul(jnp.ones((2, 3)), jnp.ones((3, 4)), scale=1.0).shape == (2, 4)


def test_kept():
    matmul = make_matmul(2.0)
    for _ in range(3):
        jax.grad(lambda x: matmul(x, jnp.ones((3, 4))).sum())(jnp.ones((2, 3)))


def fit_scales(x, steps, lr):
    @jax.jit
    def update(s):  # reused on every step of this run: one compile per run, each case its own run
        return s - lr * jax.grad(lambda s: jnp.sum((s * x) ** 2))(s)

    s = jnp.ones_like(x)
    for _ in range(steps):
        s = update(s)
    return s


def init_scales(x):
    return fit_scales(x, 10, 0.1)  # the library runs it once, to set up


@pytest.mark.parametrize("lr", [0.1, 0.01])
def test_fit_scales(lr):
    assert fit_scales(jnp.ones(3), 5, lr).shape == (3,)
