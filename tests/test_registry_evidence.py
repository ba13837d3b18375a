"""JAX102 evidence through a registry's `make("name", ...)` called by a helper of a
test file (SPEC 3, "Profiles", *recompiles*): the helper's parameters a case
does not vary are not the case's own. Case files cannot show this (a case is
`demo.py`, not a test file), so these are small two-module projects."""

from __future__ import annotations

import textwrap

from helpers import model_findings
from jaxcheck.extraction import ast_facts

ENVS = """\
import functools

import jax


class Grid:
    def __init__(self, size, flag="a"):
        self._size = size
        self._flag = flag

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x * self._size


class Line:
    def __init__(self, size, flag="a"):
        self._size = size

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x + self._size


def make(env_id, **kwargs):
    if env_id == "grid":
        return Grid(**kwargs)
    elif env_id == "line":
        return Line(**kwargs)
    raise ValueError(env_id)
"""


def jax102_lines(tests: str) -> list[tuple[str, int]]:
    modules = [
        ast_facts(ENVS, "pkg/envs.py", "pkg.envs", False),
        ast_facts(textwrap.dedent(tests), "tests/test_envs.py", "tests.test_envs", False),
    ]
    return [(finding.path, finding.line) for finding in model_findings(modules, "default") if finding.code == "JAX102"]


def test_a_helper_whose_flags_a_parametrised_test_leaves_alone_builds_equal_objects():
    tests = """\
        import pytest
        from pkg.envs import make

        def create_env(size, wide=False):
            return make("grid", size=4, flag="w" if wide else "n")

        @pytest.mark.parametrize("x", [1, 2, 3])
        def test_step(x):
            assert create_env(4).step(x) == 4 * x
    """
    assert jax102_lines(tests) == [("pkg/envs.py", 6)]


def test_a_helper_several_tests_call_with_the_same_constants_builds_equal_objects():
    tests = """\
        from pkg.envs import make

        def create_env(size):
            return make("grid", size=size)

        def test_one():
            assert create_env(4).step(1) == 4

        def test_two():
            assert create_env(4).step(2) == 8
    """
    assert jax102_lines(tests) == [("pkg/envs.py", 6)]


def test_a_helper_called_with_different_constants_builds_different_objects_on_purpose():
    tests = """\
        from pkg.envs import make

        def create_env(size):
            return make("grid", size=size)

        def test_small():
            assert create_env(3).step(1) == 3

        def test_large():
            assert create_env(5).step(1) == 5
    """
    assert jax102_lines(tests) == []


def test_a_helper_given_the_cases_own_parameter_builds_different_objects():
    tests = """\
        import pytest
        from pkg.envs import make

        def create_env(size):
            return make("grid", size=size)

        @pytest.mark.parametrize("size", [1, 2, 3])
        def test_step(size):
            assert create_env(size).step(1) == size
    """
    assert jax102_lines(tests) == []
