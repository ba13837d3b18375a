# Namespaces define `__eq__` and no `__hash__`: passed static, jax.jit raises
# `ValueError: Non-hashable static arguments are not supported` (jax 0.10.2, Python 3.11 and 3.13).
import argparse
import functools
import types

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="args")
def step(x, args):
    return x * args.scale


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=2.0)
    args = parser.parse_args(argv)
    step(jnp.ones(3), args=args)  # expect: JAX106
    step(jnp.ones(3), args=types.SimpleNamespace(scale=2.0))  # expect: JAX106
    step(jnp.ones(3), args=argparse.Namespace(scale=2.0))  # expect: JAX106
    return step(jnp.ones(3), args=argparse.ArgumentParser().parse_args([]))  # expect: JAX106
