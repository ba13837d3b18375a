# Tests may jit per call; a name that merely starts with "test" is no test, and a helper nested in a test runs with it.
import jax


def testing_util(x):
    return jax.jit(lambda v: v + 1)(x)  # expect: JAX401

def test_roundtrip():
    def helper(x):
        return jax.jit(lambda v: v + 1)(x)
    for x in range(3):
        assert helper(x) == x + 1
        assert testing_util(x) == x + 1
