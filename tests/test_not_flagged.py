"""SPEC 3 "Not flagged" for the static-argument rules JAX101, JAX102, JAX106.

Each negative makes sure the value really reaches a static position (by the
parameter annotation and/or a constructor at a call site), so that the only
reason for no finding is that the value is static-safe. Where a near miss is
flagged, the exact (line, code) set is asserted.

Single programs, their findings marked, are case files in `cases/JAX101/`,
`cases/JAX102/` or `cases/JAX106/`; the tests here fill templates over values
and spellings.
"""

from __future__ import annotations

import pytest

from helpers import codes_at, line_of


# Immutable, value-hashed classes.

@pytest.mark.parametrize(
    "imports, decorator, bases",
    [
        pytest.param("from dataclasses import dataclass", "@dataclass(frozen=True)", "", id="dataclass"),
        pytest.param("import dataclasses", "@dataclasses.dataclass(frozen=True)", "", id="dataclasses.dataclass"),
        pytest.param("from dataclasses import dataclass", "@dataclass(frozen=True, eq=True)", "", id="eq-true"),
        pytest.param("from typing import NamedTuple", "", "(NamedTuple)", id="NamedTuple-from-typing"),
        pytest.param("import typing", "", "(typing.NamedTuple)", id="typing.NamedTuple"),
    ],
)
def test_frozen_dataclass_or_typing_namedtuple(imports, decorator, bases):
    src = f"""
        import jax
        {imports}

        {decorator}
        class Config{bases}:
            num_wheels: int
            name: str = "car"

        @jax.jit(static_argnums=0)
        def f(cfg: Config, x):
            return x * cfg.num_wheels

        cfg = Config(2)
        f(cfg, 1.0)
        f(Config(4), 1.0)
    """
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "imports, base",
    [
        pytest.param("import enum", "enum.Enum", id="enum.Enum"),
        pytest.param("from enum import Enum", "Enum", id="Enum"),
        pytest.param("from enum import IntEnum", "IntEnum", id="IntEnum"),
    ],
)
def test_enum(imports, base):
    src = f"""
        import jax
        {imports}

        class Mode({base}):
            FAST = 1
            SLOW = 2

        @jax.jit(static_argnums=0)
        def f(mode: Mode, x):
            return x * mode.value

        f(Mode.FAST, 1.0)
        f(Mode(2), 1.0)
    """
    assert codes_at(src) == set()


# Primitives, tuples and functions.

PRIMITIVES_AND_TUPLES = [
    "2", "-1", "1.5", "1j", "'wheels'", "b'raw'", "True", "None", "()", "(1, 'a', None, 2.0)", "((1, 2), ('a',))"
]
# Hashable containers: the JAX106 negatives.
HASHABLE_CONTAINERS = [
    "frozenset({1, 2})",
    "frozenset([1, 2])",
    "frozenset()",
    "(1, 2)",
    "tuple([1, 2])",
    "'abc'",
    "('a', ('b', 'c'))",
]


@pytest.mark.parametrize("value", PRIMITIVES_AND_TUPLES + HASHABLE_CONTAINERS)
def test_hashable_value_at_a_static_position(value):
    src = f"""
        import jax

        @jax.jit(static_argnums=1)
        def f(x, s):
            return x

        f(1.0, {value})
        f(1.0, s={value})
        f(x=1.0, s={value})
    """
    assert codes_at(src) == set()


# Plain classes: a static use that reads no state, and classes shaped by something unknown.

@pytest.mark.parametrize(
    "test",
    [
        pytest.param("cfg is None", id="is-None"),
        pytest.param("cfg is not None", id="is-not-None"),
        pytest.param(
            "None is cfg",
            id="None-is",
        ),
    ],
)
def test_static_use_that_never_reads_state_is_identity_hash_only(test):
    # JAX102 still applies: every fresh Config(2) is a new cache key.
    src = f"""
        import jax

        class Config:
            def __init__(self, num_wheels):
                self.num_wheels = num_wheels

        @jax.jit(static_argnums=1)
        def f(x, cfg):
            if {test}:
                return x
            return x + 1

        cfg = Config(2)
        f(1.0, cfg)
        cfg.num_wheels = 3
    """
    assert codes_at(src) == {(line_of(src, "class Config"), "JAX102")}


@pytest.mark.parametrize(
    "prelude, class_line",
    [
        pytest.param("from somewhere import Base", "class Config(Base):", id="unknown-base"),
        pytest.param("import somewhere", "class Config(somewhere.Base):", id="unknown-dotted-base"),
        pytest.param("from somewhere import magic\n@magic", "class Config:", id="unknown-decorator"),
        pytest.param("from somewhere import magic\n@magic(frozen=True)", "class Config:", id="unknown-decorator-call"),
        pytest.param("from somewhere import Meta", "class Config(metaclass=Meta):", id="unknown-metaclass"),
    ],
)
def test_class_shaped_by_something_unknown_is_not_judged(prelude, class_line):
    src = (
        "import jax\n" + prelude + "\n" + class_line + "\n"
        "    def __init__(self, num_wheels):\n"
        "        self.num_wheels = num_wheels\n"
        "\n"
        "@jax.jit(static_argnums=0)\n"
        "def f(cfg: Config, x):\n"
        "    return x * cfg.num_wheels\n"
        "\n"
        "cfg = Config(2)\n"
        "f(cfg, 1.0)\n"
        "cfg.num_wheels = 4\n"
    )
    assert codes_at(src) == set()


# JAX106 negatives (hashable containers at a static position: test_hashable_value_at_a_static_position).

@pytest.mark.parametrize("value", ["[1, 2]", "{'a': 1}", "{1, 2}", "[i for i in range(3)]", "np.zeros(3)"])
def test_unhashable_value_at_a_non_static_position(value):
    src = f"""
        import jax
        import numpy as np

        @jax.jit(static_argnums=1)
        def f(x, n):
            return x

        f({value}, 3)
        f(x={value}, n=3)
        g = jax.jit(f, static_argnames="n")
        g({value}, 3)
    """
    assert codes_at(src) == set()


# Mutation only during construction.

@pytest.mark.parametrize(
    "post_init_call, method, method_body, reported_at",
    [
        pytest.param(
            "self._setup()",
            "_setup",
            "self.extra = self.total + 1",
            "class Config",
            id="mutated-only-during-construction",
        ),
        # The contrast: a method outside construction is reported at its assignment.
        pytest.param(
            "",
            "grow",
            "self.total = self.total + 1",
            "self.total = self.total + 1",
            id="setter-after-construction-reported-at-its-assignment",
        ),
    ],
)
def test_unsafe_hash_dataclass_mutated_in_a_method(post_init_call, method, method_body, reported_at):
    src = f"""
        import jax
        from dataclasses import dataclass

        @dataclass(unsafe_hash=True)
        class Config:
            num_wheels: int
            total: int = 0

            def __post_init__(self):
                self.total = 2 * self.num_wheels
                {post_init_call}

            def {method}(self):
                {method_body}

        @jax.jit(static_argnums=0)
        def f(cfg: Config, x):
            return x * cfg.total

        f(Config(2), 1.0)
    """
    assert codes_at(src) == {(line_of(src, reported_at), "JAX101")}


@pytest.mark.parametrize(
    "transform",
    [
        "functools.partial(jax.pmap, static_broadcasted_argnums=(1,))",
        "functools.partial(jax.checkpoint, static_argnums=(1,))",
        "eqx.filter_pmap",  # equinox's lru_cache, likewise (checked: [4.0] then [6.0])
    ],
)
def test_value_hashed_mutable_object_under_a_transform_that_hashes_once(transform):
    # pmap and checkpoint hash a key when they store it: after `cfg.scale = 3.0`
    # the object hashes elsewhere and JAX recompiles (checked on jax 0.10.2: 4.0
    # then 6.0). jax.jit, by contrast, would return the stale 4.0 (JAX101).
    src = f"""
        import dataclasses
        import functools

        import equinox as eqx
        import jax

        @dataclasses.dataclass(unsafe_hash=True)
        class Cfg:
            scale: float

        @{transform}
        def f(x, cfg):
            return x * cfg.scale

        cfg = Cfg(2.0)
        f(jax.numpy.ones((1, 2)), cfg)
        cfg.scale = 3.0
    """
    assert codes_at(src) == set()
