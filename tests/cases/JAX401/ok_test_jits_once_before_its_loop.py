# A test that jits once, before its loop, once per test without a loop, or a new case per turn: no JAX401.
import jax
import jax.numpy as jnp


def _double(v):
    return v * 2.0


def test_jit_once():
    f = jax.jit(lambda v: _double(v))
    for _ in range(4):
        assert float(f(jnp.ones(()))) == 2.0


def test_no_loop():
    assert float(jax.jit(lambda v: _double(v))(jnp.ones(()))) == 2.0


def test_helper_called_in_a_loop():
    def helper(x):
        return jax.jit(lambda v: v + 1)(x)

    for x in range(3):
        assert helper(x) == x + 1


def test_gradient_for_each_parameter():
    # Each turn's function reads the turn's parameter: a new case, compiled on purpose.
    for name in ("scale", "shift"):
        def run(v):
            return _double(v) if name == "scale" else v + 1.0

        assert float(jax.jit(jax.grad(run))(jnp.ones(()))) > 0.0
