"""No input breaks a run: generated programs, and files no one writes on purpose.

Property-based: for any program Python's parser accepts, jaxcheck returns
findings and never raises or reports a failure of its own; for any text it
refuses, jaxcheck reports one JAX000. The programs come from hypothesmith
(generated from Python's grammar, and from LibCST's node types), each put
behind a header that names `static_argnums`, a jitted lambda and a pytree
registration, so that the pre-filter lets it through and every rule runs on it;
and a generated module never costs the buggy module beside it a finding.
`JAXCHECK_PROPERTY_EXAMPLES` sets how many programs each property tries (150;
CI runs 500 each, 2,000 in all).
"""

from __future__ import annotations

import ast
import os
import sys
import stat
import warnings
from pathlib import Path

import pytest

# Generated programs are odd on purpose: the warnings Python's compiler gives on them are noise.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")
hypothesis = pytest.importorskip("hypothesis")
hypothesmith = pytest.importorskip("hypothesmith")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from helpers import BUGGY, jaxcheck_run, located  # noqa: E402
from helpers import findings_of  # noqa: E402
from jaxcheck.config import Config  # noqa: E402
from jaxcheck.engine import check  # noqa: E402

# Every rule family has something to look at in a file with this header.
HEADER = """\
import functools
import jax
from jax.tree_util import register_pytree_node


@functools.partial(jax.jit, static_argnums=0)
def _header_f(cfg, x):
    return jax.jit(lambda v: v * cfg.scale)(x)


"""
_SETTINGS = settings(
    max_examples=int(os.environ.get("JAXCHECK_PROPERTY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,  # the same programs on every run: a failure is reproducible
)


def _parses(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def _assert_handled(text: str) -> None:
    findings, failed = findings_of(text, "generated.py")
    assert not failed, findings
    assert not any("jaxcheck failed" in finding.message for finding in findings), findings
    bad = [finding for finding in findings if finding.code == "JAX000"]
    if _parses(text):
        assert not bad, bad
    else:
        assert len(bad) == 1, findings


@pytest.mark.slow
@_SETTINGS
@given(hypothesmith.from_grammar())
def test_programs_from_the_grammar(source: str) -> None:
    _assert_handled(HEADER + source)


@pytest.mark.slow
@_SETTINGS
@given(hypothesmith.from_node())
def test_programs_from_libcst_nodes(source: str) -> None:
    _assert_handled(HEADER + source)


@pytest.mark.slow
@_SETTINGS
@given(st.text())
def test_any_text(text: str) -> None:
    _assert_handled(HEADER + text)


@pytest.fixture(scope="module")
def two_modules(tmp_path_factory):
    """A project of two modules given as texts, the buggy one and a generated
    one: (a function of the generated text to the buggy module's findings,
    those findings with the buggy module alone)."""
    root = tmp_path_factory.mktemp("property")
    (root / "pyproject.toml").write_text("")
    buggy, generated = str(root / "buggy.py"), str(root / "generated.py")
    config = Config(root=str(root), profile="strict")

    def buggy_findings(text: str | None) -> set[tuple[int, str]]:
        texts = {buggy: BUGGY, **({generated: text} if text is not None else {})}
        result = check(list(texts), lambda _: config, texts=texts, use_cache=False)
        assert not result.internal_errors, result.findings
        return {(finding.line, finding.code) for finding in result.findings if finding.path == buggy}

    alone = buggy_findings(None)
    assert {code for _, code in alone} == {"JAX101", "JAX102"}
    return buggy_findings, alone


@pytest.mark.slow
@_SETTINGS
@given(source=hypothesmith.from_grammar())
def test_a_generated_module_beside_a_buggy_one_costs_it_no_finding(two_modules, source: str) -> None:
    """No lost findings: what another module of the project holds, parsable or
    not, never takes a finding from the buggy one (nothing imports it)."""
    buggy_findings, alone = two_modules
    assert buggy_findings(HEADER + source) >= alone


# --- files no one writes on purpose ---------------------------------------------------------------


def _run_next_to_buggy(tmp_path: Path) -> tuple[int, set, str]:
    (tmp_path / "buggy.py").write_text(BUGGY)
    completed = jaxcheck_run("check", "--jobs", "1", ".", cwd=tmp_path)
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed.returncode, located(completed.stdout), completed.stderr


def _buggy_reported(found: set) -> bool:
    return {code for path, _, _, code in found if path == "./buggy.py"} == {"JAX101", "JAX102"}


@pytest.mark.parametrize(
    "name, data",
    [
        pytest.param("formfeed.py", b"import jax\n\x0c\n# static_argnums\nx = 1\n", id="form-feed"),
        pytest.param("tabs.py", b"import jax\nif True:\n\tx = 1  # static_argnums\n", id="tabs"),
        pytest.param("mixed.py", b"import jax\nif True:\n\tx = 1\n        y = 2  # static_argnums\n", id="mixed-tabs"),
        pytest.param("cr.py", b"import jax\rx = 1  # static_argnums\r", id="old-mac-line-ends"),
        pytest.param("bom16.py", "# static_argnums\nx = 1\n".encode("utf-16"), id="utf-16-bom"),
        pytest.param("empty.py", b"", id="empty"),
        pytest.param("blocks.py", b"# static_argnums\n" + b"".join(b" " * n + b"if x:\n" for n in range(1000)) + b" " * 1000 + b"pass\n", id="1000-deep-blocks"),
        pytest.param("brackets.py", b"# static_argnums\nx = " + b"(" * 1000 + b")" * 1000 + b"\n", id="1000-deep-brackets"),
        pytest.param("chain.py", b"# static_argnums\nx = " + b" + ".join([b"1"] * 20000) + b"\n", id="20000-long-chain"),
    ],
)
def test_odd_file_never_stops_the_run(tmp_path: Path, name: str, data: bytes) -> None:
    (tmp_path / name).write_bytes(data)
    code, found, stderr = _run_next_to_buggy(tmp_path)
    assert code == 1, stderr
    assert _buggy_reported(found)
    assert not any("failed" in line for line in stderr.splitlines() if "JAX000" in line)
    assert len({finding for finding in found if finding[0] == f"./{name}"}) <= 1


@pytest.mark.slow
def test_ten_megabyte_file(tmp_path: Path) -> None:
    # Generated tables and vendored code are mostly data and comments: so is this one.
    lines = [f"# row {n:07}: " + "x" * 60 for n in range(150_000)]
    lines += [f"value_{n} = jax.jit(lambda v: v + {n})  # static_argnums" for n in range(2_000)]
    (tmp_path / "huge.py").write_text("import jax\n" + "\n".join(lines) + "\n")
    assert (tmp_path / "huge.py").stat().st_size > 10_000_000
    code, found, stderr = _run_next_to_buggy(tmp_path)
    assert code == 1, stderr
    assert _buggy_reported(found)


def test_symlink_loop_and_unreadable_folder(tmp_path: Path) -> None:
    (tmp_path / "loop").mkdir()
    os.symlink(tmp_path / "loop", tmp_path / "loop" / "again")
    os.symlink(tmp_path, tmp_path / "loop" / "up")
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "inside.py").write_text(BUGGY)
    locked.chmod(0)
    try:
        code, found, stderr = _run_next_to_buggy(tmp_path)
    finally:
        locked.chmod(stat.S_IRWXU)
    assert code == 1, stderr
    assert _buggy_reported(found)


def test_nothing_is_written_in_the_project(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "pkg" / "a.py").write_text(BUGGY)
    (tmp_path / "pkg" / "bad.py").write_bytes(b"x = = 1  # static_argnums\n")
    before = {path: path.stat().st_mtime_ns for path in tmp_path.rglob("*")}
    for _ in range(2):  # cold, then warm
        assert jaxcheck_run("check", "--jobs", "2", ".", cwd=tmp_path).returncode == 1
    after = set(tmp_path.rglob("*"))
    assert after == set(before)
    assert all(path.stat().st_mtime_ns == before[path] for path in after)


# Run in a fresh process (this one has imported JAX, whose threads make a
# fork unwise): the workers fork from it and inherit the patched reader. A
# worker dies (or stops) reading a file marked DIE_HERE (STOP_HERE); this
# process reads it as usual.
_DYING_WORKER_RUN = """
import os, signal, sys
from jaxcheck.loading import loader, pool
from jaxcheck.config import find_config
from jaxcheck.engine import check

this_process = os.getpid()
read = loader.read_module
pool.STALLED_AFTER = 3.0

def dying(job):
    if os.getpid() != this_process and "DIE_HERE" in job[1]:
        os._exit(139)
    if os.getpid() != this_process and "STOP_HERE" in job[1]:
        os.kill(os.getpid(), signal.SIGSTOP)
    return read(job)

loader.read_module = dying
result = check([sys.argv[1]], find_config, jobs=2, use_cache=False)
for finding in result.findings:
    print(os.path.basename(finding.path), finding.code)
print("internal errors:", result.internal_errors)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs forked workers")
@pytest.mark.parametrize("marker", ["DIE_HERE", "STOP_HERE"])
def test_a_worker_that_dies_or_stops_costs_no_finding(tmp_path: Path, marker: str) -> None:
    import subprocess

    for number in range(40):
        (tmp_path / f"buggy{number:02}.py").write_text(BUGGY + f"# {marker}\n" * (number == 17))
    completed = subprocess.run(
        [sys.executable, "-c", _DYING_WORKER_RUN, str(tmp_path)], capture_output=True, text=True, timeout=300
    )
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert len([line for line in lines if line.split()[1] in ("JAX101", "JAX102")]) == 80, lines
    assert lines[-1] == "internal errors: 0"
