"""`jaxcheck watch`: the static hazards seen as they happen under real JAX.

Every fixture runs in this process inside `jaxcheck.watch()` (imported inside
it, so its decorators are watched): each `fail_` one reports its folder's rule
(or the rule its default-profile markers name, where the folder's is a strict
one: a `Vehicle` changed after the call is JAX101 at run time) and each `pass_`
and `ok_` one reports nothing, while every fixture still computes what it
computes unwatched. Then the command in a subprocess (exit statuses, formats,
`-m`), and the pytest plugin over a small project of its own.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import io
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from helpers import expected_at, write

jax = pytest.importorskip("jax")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
FILES = sorted(FIXTURES.glob("JAX*/*.py"))
# Failing fixtures whose hazard cannot be seen at run time, with the reason. None today: a
# stale result, a recompilation, JAX's own error and aux_data holding an array are all seen.
UNOBSERVABLE: dict[str, str] = {}


def _run_watched(path: Path):
    """The fixture's demonstration and the findings of a watch around its import and its run."""
    import jaxcheck

    name = f"watched_{path.parent.name}_{path.stem}"
    with jaxcheck.watch() as seen, warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
            shown = module.demonstrate()
        finally:
            del sys.modules[name]
    return module, shown, list(seen)


def _misbehaves_on_this_jax(module) -> bool:
    wanted = getattr(module, "JAX_MISBEHAVES", "")
    return not wanted or Version(jax.__version__) in SpecifierSet(wanted)


@pytest.mark.parametrize("path", FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_each_fixture_reports_its_rule_and_computes_what_it_computes_unwatched(path: Path):
    module, shown, seen = _run_watched(path)
    codes = {finding.code for finding in seen}
    if not path.name.startswith("fail_"):
        assert codes == set(), [finding.message for finding in seen]
        assert shown["observed"] == shown["expected"], shown
        return
    label = f"{path.parent.name}/{path.name}"
    if label in UNOBSERVABLE:
        return
    wanted = {path.parent.name} | {code for _, code in expected_at(path.read_text(), "default")}
    # On a release where the fixture behaves (JAX_OTHERWISE = "recompiles"), the watch still sees the
    # changed key: JAX compiles again for it, and the finding says so.
    assert codes & wanted, (wanted, [f"{finding.code} {finding.message}" for finding in seen])
    # Nothing the fixture's markers do not name, in either profile.
    assert codes <= wanted | {code for _, code in expected_at(path.read_text(), "strict")}, codes
    if _misbehaves_on_this_jax(module):
        assert shown["observed"] != shown["expected"], "the watch changed what the program computes"
        for finding in seen:
            if finding.code in wanted and shown["kind"] == "stale" and "traces" not in shown:
                assert "stale result" in finding.message or "array" in finding.message
    else:
        assert shown["observed"] == shown["expected"], "the watch changed what the program computes"
        assert any("compiled again" in finding.message for finding in seen), [f.message for f in seen]


def test_a_stale_result_names_the_attribute_its_values_the_call_sites_and_the_fix():
    _, _, seen = _run_watched(FIXTURES / "JAX101" / "fail_setter_method.py")
    (finding,) = seen
    path = os.path.relpath(FIXTURES / "JAX101" / "fail_setter_method.py")
    assert (finding.path, finding.line, finding.code) == (path, 26, "JAX101")
    assert "`sc.scale` changed from 2 to 3 at line 31" in finding.message
    assert [(place.note, place.line) for place in finding.related] == [
        ("became a cache key here", 50), ("changed here", 31), ("called again here", 52)
    ]
    assert finding.fix.startswith("Make `Scaler` immutable")
    consequence = "stale result" if Version(jax.__version__) < Version("0.11") else "compiled again"
    assert consequence in finding.message


def _run_source(tmp_path: Path, source: str, name: str = "watched_program"):
    path = write(tmp_path, f"{name}.py", source)
    module, shown, seen = _run_watched(path)
    return seen


COUNTER = """\
import functools

import jax
import jax.numpy as jnp


class Stepper:
    def __init__(self):
        self.scale = 2.0
        self.calls = 0

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x * self.scale


def demonstrate():
    stepper = Stepper()
    for _ in range(3):
        stepper.step(jnp.float32(1.0))
        stepper.calls += 1  # state no trace reads
    {change}
    return {{"observed": float(stepper.step(jnp.float32(1.0))), "expected": 0.0}}
"""


def test_a_change_to_state_no_trace_read_is_not_a_stale_result(tmp_path):
    seen = _run_source(tmp_path, COUNTER.format(change="pass"))
    if Version(jax.__version__) < Version("0.11"):  # later releases hash `self` by identity here too: no recompilation
        assert seen == []
    assert not any("stale" in finding.message for finding in seen)
    seen = _run_source(tmp_path, COUNTER.format(change="stepper.scale = 3.0"), name="changed")
    assert [finding.code for finding in seen] == ["JAX101"]
    assert "`self.scale` changed from 2.0 to 3.0" in seen[0].message


LOOP = """\
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="n")
def power(x, n):
    return x ** n


def demonstrate():
    for n in {values}:
        power(jnp.float32(2.0), n=n)
    return {{"observed": 0, "expected": 0}}
"""


def test_a_static_argument_is_reported_from_its_third_value_at_one_call(tmp_path):
    assert _run_source(tmp_path, LOOP.format(values="(1, 2, 1, 2)")) == []
    (finding,) = _run_source(tmp_path, LOOP.format(values="range(10)"), name="many")
    assert finding.code == "JAX402" and finding.line == 14
    assert "took 3 distinct values at this call" in finding.message


REWRAPPED = """\
import jax
import jax.numpy as jnp


def double(x):
    return x * 2


def demonstrate():
    for turn in range(6):
        step = jax.jit(double)  # the same function object: JAX reuses its traces
        step(jnp.ones(turn % 3 + 1))
    return {"observed": 0, "expected": 0}
"""


def test_jitting_the_same_function_object_again_is_no_jit_per_call(tmp_path):
    """SPEC 1: re-wrapping one function object reuses its trace; a trace for new argument types is no JAX401."""
    assert _run_source(tmp_path, REWRAPPED) == []


def test_the_watch_puts_every_transform_back():
    import jaxcheck

    before = jax.jit, jax.pmap, jax.checkpoint, jax.remat, jax.make_jaxpr, jax.tree_util.register_pytree_node
    with jaxcheck.watch():
        assert jax.jit is not before[0]
    assert (jax.jit, jax.pmap, jax.checkpoint, jax.remat, jax.make_jaxpr, jax.tree_util.register_pytree_node) == before


def test_a_jitted_function_made_in_a_watch_keeps_working_after_it():
    import jaxcheck

    with jaxcheck.watch() as seen:
        double = jax.jit(lambda x: 2 * x)
        assert float(double(1.0)) == 2.0
    assert float(double(3.0)) == 6.0 and hasattr(double, "lower") and double.__wrapped__(2) == 4
    assert seen == []


def test_importing_jaxcheck_and_running_the_linter_import_no_jax():
    program = (
        "import sys, jaxcheck; from jaxcheck.cli import main; main(['rules']); "
        "import jaxcheck.watch.pytest_plugin; print(sorted(m for m in sys.modules if m.split('.')[0] in ('jax', 'jaxlib')))"
    )
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert completed.stdout.splitlines()[-1] == "[]", completed.stderr


def _python(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`python args...` in `cwd`, finding this jaxcheck."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=environment)


def _watch(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return _python("-m", "jaxcheck", "watch", *args, cwd=cwd)


STALE_PROGRAM = """\
import functools
import sys

import jax
import jax.numpy as jnp


class Config:
    def __init__(self, scale):
        self.scale = scale


@functools.partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    return x * cfg.scale


cfg = Config(2.0)
print(float(step(jnp.float32(1.0), cfg=cfg)))
cfg.scale = float(sys.argv[1])
print(float(step(jnp.float32(1.0), cfg=cfg)))
if len(sys.argv) > 2:
    raise SystemExit(int(sys.argv[2]))
"""


def test_the_command_runs_a_program_with_its_arguments_and_exits_1_on_findings(tmp_path):
    write(tmp_path, "train.py", STALE_PROGRAM)
    completed = _watch("train.py", "3.0", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    output, finding = completed.stdout.splitlines()[:2], completed.stdout.splitlines()[2]
    assert output[0] == "2.0"
    assert finding.startswith("train.py:8:1: JAX101 `Config` is mutable: `cfg.scale` changed from 2.0 to 3.0 at line 20 after `cfg`")
    assert finding.endswith("[mutable-static]")
    assert completed.stderr.strip().endswith("jaxcheck watch: 1 finding")


def test_the_command_passes_on_the_programs_own_failure_and_writes_json(tmp_path):
    write(tmp_path, "train.py", STALE_PROGRAM)
    completed = _watch("--output-format", "json", "--output-file", "out.json", "train.py", "3.0", "7", cwd=tmp_path)
    assert completed.returncode == 7, completed.stderr
    (record,) = json.loads((tmp_path / "out.json").read_text())
    assert (record["path"], record["line"], record["code"], record["name"]) == ("train.py", 8, "JAX101", "mutable-static")
    assert [(place["note"], place["line"]) for place in record["related"]] == [
        ("became a cache key here", 19), ("changed here", 20), ("called again here", 21)
    ]


def test_the_command_runs_a_module_and_exits_0_when_nothing_is_seen(tmp_path):
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/train.py", STALE_PROGRAM.replace("class Config:", "@__import__('dataclasses').dataclass(frozen=True)\nclass Config:").replace(
        "cfg.scale = float(sys.argv[1])", "cfg = Config(float(sys.argv[1]))"
    ).replace("    def __init__(self, scale):\n        self.scale = scale\n", "    scale: float\n"))
    completed = _watch("--output-format", "sarif", "-m", "pkg.train", "2.0", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    document = json.loads(completed.stdout[completed.stdout.index("{"):])
    assert document["runs"][0]["results"] == []


def test_a_program_package_named_like_jax_is_the_programs_own(tmp_path):
    # `jaxtools` (like `jaxley` or `jaxpi`) is not `jax`: its class attributes and closures are watched.
    write(tmp_path, "jaxtools.py", (
        "import jax\n\n\nclass Config:\n    scale = 1.0\n\n\n"
        "@jax.jit\ndef scaled(x):\n    return x * Config.scale\n"
    ))
    write(tmp_path, "main.py", (
        "import jax.numpy as jnp\n\nfrom jaxtools import Config, scaled\n\n"
        "print(float(scaled(jnp.float32(2.0))))\nConfig.scale = 4.0\nprint(float(scaled(jnp.float32(2.0))))\n"
    ))
    completed = _watch("main.py", cwd=tmp_path)
    assert completed.returncode == 1, completed.stdout + completed.stderr
    assert "JAX204 `scaled` read global `Config.scale`" in completed.stdout, completed.stdout


PLUGIN_PROJECT = {
    "settings.py": """\
import functools

import jax


class Config:
    def __init__(self, scale):
        self.scale = scale


@functools.partial(jax.jit, static_argnames="cfg")
def step(x, cfg):
    return x * cfg.scale


@functools.partial(jax.jit, static_argnames="n")
def power(x, n):
    return x**n
""",
    "test_settings.py": """\
import jax.numpy as jnp
import pytest

from settings import Config, power, step

SHARED = Config(2.0)


def test_uses_the_config():
    assert float(step(jnp.float32(1.0), cfg=SHARED)) == 2.0


def test_changes_the_config_after_it_became_a_key():
    SHARED.scale = 3.0
    assert float(step(jnp.float32(1.0), cfg=SHARED)) in (2.0, 3.0)


def test_builds_its_own_config():
    assert float(step(jnp.float32(2.0), cfg=Config(1.0))) == 2.0


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_each_case_compiles_its_own_power(n):  # a static value per case, on purpose
    assert float(power(jnp.float32(2.0), n=n)) == 2.0**n
""",
}


@pytest.mark.parametrize("mode", ["error", "report"])
def test_the_pytest_plugin_fails_exactly_the_test_that_made_a_static_object_stale(tmp_path, mode):
    for name, text in PLUGIN_PROJECT.items():
        write(tmp_path, name, text)
    # Installed, the package's `pytest11` entry point loads the plugin (loading it twice is an error).
    installed = any(point.name == "jaxcheck" for point in importlib.metadata.entry_points(group="pytest11"))
    load = () if installed else ("-p", "jaxcheck.watch.pytest_plugin")
    completed = _python(
        "-m", "pytest", *load, f"--jaxcheck-watch={mode}", "-p", "no:cacheprovider", "-rA",
        "test_settings.py", cwd=tmp_path,
    )
    lines = completed.stdout.splitlines()
    failed = sorted(line.split()[1] for line in lines if line.startswith("FAILED"))
    passed = sorted(line.split()[1] for line in lines if line.startswith("PASSED"))
    if mode == "error":
        assert completed.returncode == 1, completed.stdout
        assert failed == ["test_settings.py::test_changes_the_config_after_it_became_a_key"], completed.stdout
        assert len(passed) == 6
    else:
        assert completed.returncode == 0, completed.stdout
        assert failed == [] and len(passed) == 7
    assert "JAX402" not in completed.stdout, completed.stdout
    assert any(line.startswith("settings.py:6:1: JAX101 `Config` is mutable") for line in lines), completed.stdout
