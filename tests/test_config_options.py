"""The analysis keys of `[tool.jaxcheck]`: extra-transforms, static-bases, singletons."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import jaxcheck_run, located, write

PROGRAM = """\
import functools

from mypkg import compile as mc
from mypkg.base import StaticBase


class Vehicle:
    def __init__(self, n):
        self.n = n


class Frozen(StaticBase):
    def __init__(self, n):
        self.n = n


@functools.partial(mc.compile, const_argnums=(1,))
def f(x, v: Vehicle):
    return x * v.n


@functools.partial(mc.compile, const_argnums=(1,))
def g(x, v: Frozen):
    return x * v.n
"""
VEHICLE_LINE, FROZEN_LINE = 7, 12


def project(tmp_path: Path, config: str) -> Path:
    # The strict profile: these classes are never changed, and what is asked is which are static.
    write(tmp_path, "pyproject.toml", "[project]\nname = 'x'\n\n[tool.jaxcheck]\nprofile = \"strict\"\n" + config)
    write(tmp_path, "mypkg/__init__.py", "")
    write(tmp_path, "mypkg/compile.py", "def compile(fn, const_argnums=()):\n    return fn\n")
    write(tmp_path, "mypkg/base.py", "class StaticBase:\n    pass\n")
    write(tmp_path, "use.py", PROGRAM)
    return tmp_path


def findings(tmp_path: Path) -> set:
    completed = jaxcheck_run("check", "--no-cache", "use.py", cwd=tmp_path)
    assert completed.returncode in (0, 1), completed.stderr
    return {(line, code) for _, line, _, code in located(completed.stdout)}


def test_without_configuration_the_transform_is_unknown(tmp_path):
    assert findings(project(tmp_path, "")) == set()


def test_extra_transform_makes_its_keyword_static(tmp_path):
    found = findings(project(tmp_path, 'extra-transforms = ["mypkg.compile.compile:const_argnums"]\n'))
    assert found == {(VEHICLE_LINE, "JAX101"), (VEHICLE_LINE, "JAX102"), (FROZEN_LINE, "JAX101"), (FROZEN_LINE, "JAX102")}


def test_static_base_makes_its_subclasses_static_safe(tmp_path):
    config = 'extra-transforms = ["mypkg.compile.compile:const_argnums"]\nstatic-bases = ["mypkg.base.StaticBase"]\n'
    assert findings(project(tmp_path, config)) == {(VEHICLE_LINE, "JAX101"), (VEHICLE_LINE, "JAX102")}


def test_singleton_may_hash_by_identity(tmp_path):
    config = 'extra-transforms = ["mypkg.compile.compile:const_argnums"]\nsingletons = ["use.Vehicle"]\n'
    found = findings(project(tmp_path, config))
    assert (VEHICLE_LINE, "JAX102") not in found and (VEHICLE_LINE, "JAX101") in found


@pytest.mark.parametrize(
    "config, problem",
    [
        ('extra-transforms = ["mypkg.compile"]\n', "extra-transforms"),
        ('extra-transforms = ["mypkg.compile:a,b,c"]\n', "extra-transforms"),
        ('extra-transforms = "mypkg.compile:static_argnums"\n', "must be a list"),
        ('static-bases = ["not a name"]\n', "static-bases"),
        ("singletons = [1]\n", "must be a list"),
    ],
)
def test_bad_analysis_keys_are_errors(tmp_path, config, problem):
    completed = jaxcheck_run("check", "use.py", cwd=project(tmp_path, config))
    assert completed.returncode == 2
    assert problem in completed.stderr and "pyproject.toml" in completed.stderr
