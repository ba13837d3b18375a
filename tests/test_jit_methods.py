"""JAX202 jit-method-self-not-static: a jit decorator on a method, `self` traced.

Flagged: `@jax.jit` (or `pjit`) directly on an instance method of a class
that is not a registered pytree, with `self` not static. JAX then tries to
read `self` as an array and raises `TypeError: Error interpreting argument to
<function ...> as an abstract array` on the first call (checked on jax 0.10.2
for every flagged form below). Reported at the decorator line.

Not flagged (SPEC 3): static and class methods; `self` static (JAX1xx's
business); pytree classes; classes jaxcheck cannot judge (an unknown base or
decorator); `nnx.jit`/`eqx.filter_jit`, which accept any object; jit applied
to a module-level function.

Single programs, their findings marked, are case files in `cases/JAX202/`; the
tests here fill templates over decorators and bases.
"""

from __future__ import annotations

import pytest

from helpers import codes_at, line_of

# A plain class (not a pytree) whose method `scale` gets `{decorator}`.
PLAIN = """\
import functools
from functools import partial

import jax
import jax as jx
from jax import jit
from jax import jit as J
from jax.experimental.pjit import pjit


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    {decorator}
    def scale(self, y):
        return self.factor * y
"""


def plain(decorator: str) -> str:
    return PLAIN.replace("{decorator}", decorator)


# --- flagged --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "decorator",
    [
        pytest.param("@jax.jit", id="jax.jit"),
        pytest.param("@jit", id="jit-imported"),
        pytest.param("@jx.jit", id="jax-aliased"),
        pytest.param("@jax.jit()", id="jax.jit-called-empty"),
        pytest.param("@partial(jax.jit, static_argnums=1)", id="partial-static_argnums-1-is-y"),
        pytest.param("@functools.partial(jit, static_argnums=(1,))", id="functools.partial-tuple"),
        pytest.param('@jax.jit(static_argnames="y")', id="factory-static_argnames-y"),
        pytest.param('@partial(jax.jit, static_argnames=("y",))', id="partial-static_argnames-y"),
        pytest.param(
            "@pjit",
            id="pjit",
        ),
        pytest.param(
            "@J",
            id="jit-imported-as-J",
        ),
    ],
)
def test_jit_on_method_of_plain_class(decorator):
    src = plain(decorator)
    assert codes_at(src) == {(line_of(src, decorator), "JAX202")}


# --- not flagged: `self` static (JAX1xx's business) ----------------------------------------

SELF_STATIC = [
    pytest.param("@partial(jax.jit, static_argnums=0)", id="partial-static_argnums-0"),
    pytest.param("@jax.jit(static_argnums=(0,))", id="factory-static_argnums-tuple-0"),
    pytest.param('@partial(jax.jit, static_argnames="self")', id="partial-static_argnames-self"),
    pytest.param('@jax.jit(static_argnames=("self",))', id="factory-static_argnames-tuple-self"),
    pytest.param("@partial(jit, static_argnums=(0, 1))", id="self-and-y-static"),
    pytest.param(
        "@partial(jax.jit, static_argnums=-2)",
        id="negative-static_argnums-is-self",
    ),
]


@pytest.mark.parametrize("decorator", SELF_STATIC)
def test_self_static_on_a_sound_static_class(decorator):
    # A frozen dataclass hashes by value: no JAX1xx either, so the set is empty.
    src = f"""
        import dataclasses
        from functools import partial

        import jax
        from jax import jit

        @dataclasses.dataclass(frozen=True)
        class Scaler:
            factor: float

            {decorator}
            def scale(self, y):
                return self.factor * y
    """
    assert codes_at(src) == set()


@pytest.mark.parametrize("decorator", SELF_STATIC)
def test_self_static_on_a_plain_class_is_left_to_jax1xx(decorator):
    # The plain class is mutable and hashes by identity: JAX101 and JAX102 at
    # the `class` line, and no JAX202 at the decorator.
    src = plain(decorator)
    assert codes_at(src) == {(line_of(src, "class Scaler"), "JAX101"), (line_of(src, "class Scaler"), "JAX102")}


# --- not flagged: pytree classes ----------------------------------------------------------


@pytest.mark.parametrize(
    "imports, decorator, bases",
    [
        pytest.param("import equinox as eqx", "", "(eqx.Module)", id="eqx.Module"),
        pytest.param("from equinox import Module", "", "(Module)", id="equinox-Module-imported"),
        pytest.param("from flax import struct", "@struct.dataclass", "", id="flax.struct.dataclass"),
        pytest.param("import flax.struct", "@flax.struct.dataclass", "", id="flax.struct.dataclass-dotted"),
        pytest.param("from flax import struct", "", "(struct.PyTreeNode)", id="flax.struct.PyTreeNode"),
        pytest.param("from typing import NamedTuple", "", "(NamedTuple)", id="NamedTuple"),
    ],
)
def test_pytree_by_base_or_dataclass_decorator(imports, decorator, bases):
    src = f"""
        import jax
        {imports}

        {decorator}
        class Scaler{bases}:
            factor: jax.Array

            @jax.jit
            def scale(self, y):
                return self.factor * y
    """
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "imports, decorator",
    [
        pytest.param("import jax", "@jax.tree_util.register_pytree_node_class", id="jax.tree_util"),
        pytest.param("from jax.tree_util import register_pytree_node_class", "@register_pytree_node_class", id="imported"),
        pytest.param("from jax import tree_util as tu", "@tu.register_pytree_node_class", id="module-aliased"),
    ],
)
def test_register_pytree_node_class(imports, decorator):
    src = f"""
        import jax
        {imports}

        {decorator}
        class Scaler:
            def __init__(self, factor, mul):
                self.factor = factor
                self.mul = mul

            @jax.jit
            def scale(self, y):
                return self.factor * y if self.mul else y

            def tree_flatten(self):
                return (self.factor,), self.mul

            @classmethod
            def tree_unflatten(cls, aux_data, children):
                return cls(*children, aux_data)
    """
    assert codes_at(src) == set()


# --- not flagged: classes jaxcheck cannot judge -------------------------------------------


@pytest.mark.parametrize(
    "imports, bases",
    [
        pytest.param("from flax import nnx", "(nnx.Module)", id="nnx.Module"),
        pytest.param("import flax.linen as nn", "(nn.Module)", id="linen.Module"),
        pytest.param("from somelib import Base", "(Base)", id="unknown-base"),
    ],
)
def test_unknown_base(imports, bases):
    src = f"""
        import jax
        {imports}

        class Scaler{bases}:
            def __init__(self, factor):
                self.factor = factor

            @jax.jit
            def scale(self, y):
                return self.factor * y
    """
    assert codes_at(src) == set()


# --- not flagged: transforms that accept any object ---------------------------------------


@pytest.mark.parametrize(
    "imports, decorator, bases",
    [
        pytest.param("from flax import nnx", "@nnx.jit", "(nnx.Module)", id="nnx.jit-on-nnx.Module"),
        pytest.param("import equinox as eqx", "@eqx.filter_jit", "", id="eqx.filter_jit-on-plain-class"),
        pytest.param("import equinox as eqx", "@eqx.filter_jit", "(eqx.Module)", id="eqx.filter_jit-on-eqx.Module"),
    ],
)
def test_filtering_jit_on_method(imports, decorator, bases):
    src = f"""
        import jax
        {imports}

        class Scaler{bases}:
            factor: jax.Array

            def __init__(self, factor):
                self.factor = factor

            {decorator}
            def scale(self, y):
                return self.factor * y
    """
    assert codes_at(src) == set()
