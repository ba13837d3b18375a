"""What the test files share: the sample programs, and helpers that run jaxcheck.

Imported as `from helpers import ...`: pytest puts this folder (which has no
__init__.py) on sys.path for the test modules in it. Plain functions and
constants only; fixtures stay in the test files that use them.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
import tokenize
from pathlib import Path

from dataclasses import replace

from jaxcheck.config import Config, load_config
from jaxcheck.engine import check

# --- sample programs ------------------------------------------------------------------------

# A plain class passed as a static argument, built again and again and changed
# after the first call: JAX101 and JAX102 at the `class` line, with evidence.
BUGGY = """\
import jax


class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels


@jax.jit(static_argnums=0)
def f(x):
    return x.num_wheels


for _ in range(3):
    car = Vehicle(2)
    f(car)
car.num_wheels = 4
"""
# Where BUGGY's findings are (the `class` line), and the line of its static use.
BUG_LINE, BUG_COLUMN, USE_LINE = 4, 1, 16
BOTH = {"JAX101", "JAX102"}

# The fixed twin: a frozen dataclass is immutable and hashes by value.
CLEAN = """\
import dataclasses

import jax


@dataclasses.dataclass(frozen=True)
class Vehicle:
    num_wheels: int


@jax.jit(static_argnums=0)
def f(x):
    return x.num_wheels


f(Vehicle(2))
"""


def buggy_at(path: str, codes=BOTH, line: int = BUG_LINE, column: int = BUG_COLUMN) -> set[tuple[str, int, int, str]]:
    """The located findings of BUGGY written at `path`: (path, line, column, code) for each of `codes`."""
    return {(path, line, column, code) for code in codes}


# --- running jaxcheck and flake8 as a user does -----------------------------------------------

# A finding line of `jaxcheck check` in text format...
TEXT_LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<column>\d+): (?P<code>JAX\d{3}) (?P<message>.+)$")
# ... and of flake8, whose own codes (E999) may stand next to jaxcheck's.
FLAKE8_LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<column>\d+): (?P<code>[A-Z]+\d+) (?P<message>.+)$")


def write(root: Path, relative: str, content: str | bytes) -> Path:
    """Write `content` (text, or bytes as they are) at root/relative, making folders; return its path."""
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def run_module(module: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`python -m module args...` in `cwd`, with this test run's interpreter."""
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


def jaxcheck_run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return run_module("jaxcheck", *args, cwd=cwd)


def jaxcheck_here(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`jaxcheck args...` run in this process (`cli.main`), as `jaxcheck_run`
    reports it: for the many tests about what a run finds, not about the
    process it runs in. What a process keeps between runs is forgotten first."""
    import contextlib
    import io

    from jaxcheck.cli import main

    _forget_what_a_process_keeps()
    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(before)
    return subprocess.CompletedProcess(["jaxcheck", *args], code, out.getvalue(), err.getvalue())


def flake8_run(*args: str, cwd: Path, select: str = "JAX") -> subprocess.CompletedProcess:
    return run_module("flake8", "--select", select, *args, cwd=cwd)


def flake8_here(*args: str, cwd: Path, select: str = "JAX") -> subprocess.CompletedProcess:
    """`flake8 --select JAX -j 1 args...` run in this process, as `flake8_run` reports it;
    what the plugin and jaxcheck keep between runs is forgotten first."""
    import contextlib
    import io

    from flake8.main.cli import main
    from jaxcheck import flake8_plugin

    _forget_what_a_process_keeps()
    flake8_plugin._JUDGED.clear()
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")  # flake8 writes to `sys.stdout.buffer`
    err = io.StringIO()
    before = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["--select", select, "-j", "1", *args])
    finally:
        os.chdir(before)
    out.flush()
    return subprocess.CompletedProcess(["flake8", *args], code, out.buffer.getvalue().decode("utf-8"), err.getvalue())


def _forget_what_a_process_keeps() -> None:
    from jaxcheck.config import forget_configs
    from jaxcheck.loading import project
    from jaxcheck.loading.jax_target import inferred_target

    forget_configs()
    inferred_target.cache_clear()
    project._find_project.cache_clear()
    project._real_path.cache_clear()


def text_findings(stdout: str, pattern: re.Pattern[str] = TEXT_LINE) -> list[tuple[str, int, int, str, str]]:
    """Parse text output; every non-empty line must be a finding line. A run
    on `.` spells the files its messages name as its findings' (`./pkg/a.py`,
    as flake8 does): messages are compared across runs without that `./`."""
    found = []
    for line in stdout.splitlines():
        match = pattern.match(line)
        assert match, f"not a `path:line:col: CODE message` line: {line!r}"
        message = _DOT_SLASH.sub("", match["message"])
        found.append((match["path"], int(match["line"]), int(match["column"]), match["code"], message))
    return found


_DOT_SLASH = re.compile(r"(?<=[\s(`])\./(?=[\w.])")


def located(stdout: str, pattern: re.Pattern[str] = TEXT_LINE) -> set[tuple[str, int, int, str]]:
    """The (path, line, column, code) of every finding line; any other line fails the test."""
    return {finding[:4] for finding in text_findings(stdout, pattern)}


# --- linting in-process -----------------------------------------------------------------------


def cpu_seconds(function, repeat: int = 3) -> float:
    """The least CPU time of `repeat` calls: the steadiest figure on a shared machine."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


def check_text(src: str, config: Config | None = None, path: str = "demo.py", dedent: bool = True):
    """jaxcheck on one text (dedented), analysed alone, as a single file is."""
    config = config or Config(root=".", profile="strict")
    text = textwrap.dedent(src) if dedent else src
    return check([path], lambda _: config, texts={path: text}, alone=True, use_cache=False)


def findings_of(src: str, path: str = "demo.py", config: Config | None = None, dedent: bool = False):
    """(findings, whether jaxcheck failed) on one text analysed alone."""
    result = check_text(src, config, path, dedent)
    return result.findings, bool(result.internal_errors)


def codes_at(src: str, profile: str = "strict") -> set[tuple[int, str]]:
    """The (line, code) of every finding jaxcheck reports on `src` (dedented),
    the same whether the file is checked alone (as flake8 checks standard
    input) or as a module of a project (as the CLI and flake8 check files).

    The text must reach the analysis: a case the pre-filter drops, or that is
    bad input, cannot show that a rule stays silent on it.
    """
    text = textwrap.dedent(src)
    config = replace(Config(root="."), profile=profile)
    alone = check_text(text, config)
    assert not alone.internal_errors, alone.findings
    found = {(finding.line, finding.code) for finding in alone.findings}
    if any(code == "JAX000" for _, code in found):
        return found
    assert os.path.abspath("demo.py") in alone.analysed, "the pre-filter dropped the text: no rule saw it"
    assert found == codes_in_a_project(text, profile), "a file alone and the same file in a project differ"
    return found


def codes_in_a_project(text: str, profile: str = "strict") -> set[tuple[int, str]]:
    """The (line, code) of every finding on `text` as module `pkg/demo.py` of a project on disk."""
    with tempfile.TemporaryDirectory(prefix="jaxcheck-case-") as folder:
        root = Path(folder)
        (root / "pyproject.toml").write_text(f'[tool.jaxcheck]\nprofile = "{profile}"\n', encoding="utf-8")
        (root / "pkg").mkdir()
        (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
        path = root / "pkg" / "demo.py"
        path.write_text(text, encoding="utf-8")
        config = load_config(str(root / "pyproject.toml"))
        result = check([str(path)], lambda _: config, use_cache=False)
        assert not result.internal_errors, result.findings
        assert str(path) in result.analysed, "the pre-filter dropped the text: no rule saw it"
        return {(finding.line, finding.code) for finding in result.findings}


def line_of(src: str, needle: str) -> int:
    """The 1-based line of the first line of `src` (dedented) containing `needle`."""
    lines = textwrap.dedent(src).splitlines()
    matches = [number for number, line in enumerate(lines, start=1) if needle in line]
    assert matches, f"{needle!r} not in source"
    return matches[0]


def model_findings(modules, profile: str = "strict", options=None):
    """The findings the rules give on these facts (the model built from them alone)."""
    from jaxcheck.model.project import Model
    from jaxcheck.model.transforms import Options
    from jaxcheck.rules import RULES

    model = Model(modules, options or Options())
    found = {finding for rule in RULES for finding in rule().check(model)}
    return sorted(finding for finding in found if profile == "strict" or not finding.strict_only)


# --- the installed JAX libraries: real code none of us wrote --------------------------------------

JAX_EVERY = 15  # one jax file in this many, unless JAXCHECK_TEST_ALL_JAX=1


def installed(name: str) -> Path:
    """The folder of an installed package, found without importing it; the test is skipped without it."""
    import importlib.util

    import pytest

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        pytest.skip(f"{name} is not installed")
    return Path(list(spec.submodule_search_locations)[0])


def library_files(name: str) -> list[Path]:
    """The package's Python files; of jax, one in `JAX_EVERY` unless JAXCHECK_TEST_ALL_JAX=1."""
    paths = sorted(installed(name).rglob("*.py"))
    if name == "jax" and os.environ.get("JAXCHECK_TEST_ALL_JAX") != "1":
        paths = paths[::JAX_EVERY]
    return paths


def library_facts(name: str) -> list:
    """The facts of the package's files (`library_files`) that Python accepts,
    each module named as Python imports it."""
    from jaxcheck.extraction import facts_from_source
    from jaxcheck.loading.syntax import syntax_error_of

    root = installed(name)
    found = []
    for path in library_files(name):
        text = path.read_text(encoding="utf-8")
        if syntax_error_of(text, str(path)) is not None:
            continue
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_package else parts)
        found.append(facts_from_source(text, str(path), module, is_package))
    return found


# --- case files and fixtures: the findings their markers expect ----------------------------------

# `# expect: JAX101` marks a line both profiles flag; `# strict: JAX102` one only the
# strict profile flags (the design standard, without evidence in the code). Both may
# share a line: `# expect: JAX101; strict: JAX102`; several codes: `# expect: JAX101, JAX102`.
MARKER = re.compile(r"(?P<kind>expect|strict):\s*(?P<codes>JAX\d{3}(?:\s*,\s*JAX\d{3})*)")


def expected_at(text: str, profile: str) -> set[tuple[int, str]]:
    """The (line, code) the markers of `text` expect under `profile`. Markers are read
    from comment tokens only, so one written inside a string marks nothing."""
    found = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type != tokenize.COMMENT:
            continue
        for match in MARKER.finditer(token.string):
            if match["kind"] == "expect" or profile == "strict":
                found.update((token.start[0], code.strip()) for code in match["codes"].split(","))
    return found
