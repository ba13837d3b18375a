# Tests may jit per call; a name that merely starts with "test" is no test, and a helper nested in a test runs with it.
import dataclasses
import functools
from functools import partial
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
from flax import nnx, struct
from jax import jit
from jax import jit as J
from jax.experimental.pjit import pjit
from jax.tree_util import register_pytree_node_class


def testing_util(x):
    return jax.jit(lambda v: v + 1)(x)  # expect: JAX401

def test_roundtrip():
    def helper(x):
        return jax.jit(lambda v: v + 1)(x)
    for x in range(3):
        assert helper(x) == x + 1
        assert testing_util(x) == x + 1
