"""Every fixture proves its rule twice: linted exactly, and run under real JAX.

The lint half runs the real CLI once over `fixtures/` and compares each file's
findings with its `# expect:` markers. The JAX half imports each file and runs
its `demonstrate()`: on `fail_` files JAX must misbehave on the releases the
file's `JAX_MISBEHAVES` names (every release when unset) and do what its
`JAX_OTHERWISE` says on the others; on `pass_` and `ok_` files it must behave.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from helpers import expected_at

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
FILES = sorted(FIXTURES.glob("JAX*/*.py"))
# The exceptions JAX itself raises for each rule whose failure is an error.
_NON_HASHABLE = ("ValueError: Non-hashable static arguments are not supported",)
_METADATA = "ValueError: Exception raised while checking equality of metadata fields of pytree"
JAX_ERRORS = {
    "JAX104": _NON_HASHABLE,
    "JAX106": _NON_HASHABLE,
    "JAX202": ("TypeError: Error interpreting argument to",),
    # A jax array in aux_data is traced and leaks; a numpy one cannot be compared.
    "JAX301": ("UnexpectedTracerError: Encountered an unexpected tracer", _METADATA),
    "JAX302": (_METADATA,),
}


def _lint(profile: str) -> dict[str, set[tuple[int, str]]]:
    completed = subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", "--format", "json", "--jobs", "1", "--profile", profile, str(FIXTURES)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert completed.returncode == 1, completed.stderr
    by_file: dict[str, set[tuple[int, str]]] = defaultdict(set)
    for record in json.loads(completed.stdout):
        by_file[str(Path(record["path"]).resolve())].add((record["line"], record["code"]))
    return by_file


@pytest.fixture(scope="module")
def reported() -> dict[str, dict[str, set[tuple[int, str]]]]:
    return {profile: _lint(profile) for profile in ("default", "strict")}


def test_every_rule_folder_has_fail_and_pass_twins():
    folders = sorted(path for path in FIXTURES.iterdir() if path.is_dir())
    assert folders, "no fixtures"
    for folder in folders:
        fails = {path.name[len("fail_") :] for path in folder.glob("fail_*.py")}
        passes = {path.name[len("pass_") :] for path in folder.glob("pass_*.py")}
        alone = {path.name for path in folder.glob("ok_*.py")}
        assert fails, f"{folder.name} has no failing fixture"
        assert fails == passes, f"{folder.name}: fail_/pass_ files are not twins: {sorted(fails ^ passes)}"
        assert {path.name for path in folder.glob("*.py")} == {f"fail_{n}" for n in fails} | {
            f"pass_{n}" for n in passes
        } | alone


@pytest.mark.parametrize("path", FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_linted_exactly_at_expect_markers(path: Path, reported):
    strict = expected_at(path.read_text(), "strict")
    if path.name.startswith("fail_"):
        assert strict, "a failing fixture marks at least one line with # expect: (or # strict:)"
        assert {code for _, code in strict} >= {path.parent.name}, "it shows its own folder's rule"
    else:
        assert not strict, "a passing or look-alike fixture has no marker"
    for profile in ("default", "strict"):
        assert reported[profile].get(str(path.resolve()), set()) == expected_at(path.read_text(), profile), profile


def test_the_default_profile_flags_a_subset_of_what_the_strict_one_flags(reported):
    for path, found in reported["default"].items():
        assert found <= reported["strict"].get(path, set()), path


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"fixture_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _misbehaves_on_this_jax(module) -> bool:
    """Whether the installed jax is in the fixture's `JAX_MISBEHAVES` range (every release when unset)."""
    import jax

    wanted = getattr(module, "JAX_MISBEHAVES", "")
    return not wanted or Version(jax.__version__) in SpecifierSet(wanted)


@pytest.mark.parametrize("path", FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_jax_misbehaves_on_fail_and_behaves_on_pass(path: Path):
    pytest.importorskip("jax")
    module = _load(path)
    shown = module.demonstrate()
    assert shown["kind"] in ("stale", "retrace", "error")
    if not path.name.startswith("fail_"):
        assert shown["observed"] == shown["expected"], shown
    elif not _misbehaves_on_this_jax(module):
        # What this release does instead, as the fixture states it: right
        # results, and one compilation per state of the changed object.
        assert module.JAX_OTHERWISE == "recompiles", "say what JAX does outside JAX_MISBEHAVES"
        assert shown["observed"] == shown["expected"], shown
        assert shown["traces"] == len(shown["expected"]), shown
    elif "traces" in shown and shown["kind"] == "stale":
        assert shown["observed"] != shown["expected"], shown
        assert shown["traces"] == 1, "stale: the first compilation served every call"
    elif shown["kind"] == "error":
        assert path.parent.name in JAX_ERRORS, "name the exception JAX raises for this rule in JAX_ERRORS"
        assert isinstance(shown["observed"], str), shown
        assert shown["observed"].startswith(JAX_ERRORS[path.parent.name]), shown
    elif shown["kind"] == "retrace":
        assert shown["observed"] > shown["expected"], shown
    else:
        assert shown["observed"] != shown["expected"], shown
