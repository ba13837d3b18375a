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


@_SETTINGS
@given(hypothesmith.from_grammar())
def test_programs_from_the_grammar(source: str) -> None:
    _assert_handled(HEADER + source)


@_SETTINGS
@given(hypothesmith.from_node())
def test_programs_from_libcst_nodes(source: str) -> None:
    _assert_handled(HEADER + source)


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


def test_nothing_is_written_outside_the_cache_folder(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "pkg" / "a.py").write_text(BUGGY)
    (tmp_path / "pkg" / "bad.py").write_bytes(b"x = = 1  # static_argnums\n")
    before = {path: path.stat().st_mtime_ns for path in tmp_path.rglob("*")}
    for _ in range(2):  # cold, then warm
        assert jaxcheck_run("check", "--jobs", "2", ".", cwd=tmp_path).returncode == 1
    after = {path for path in tmp_path.rglob("*") if ".jaxcheck_cache" not in path.parts}
    assert after == set(before)
    assert all(path.stat().st_mtime_ns == before[path] for path in after)


# Run in a fresh process (this one has imported JAX, whose threads make a fork
# unwise): the children and workers fork from it and inherit the patched readers.
# A crash in native code is LibCST's: the quicker reader declines a file marked
# ONLY_LIBCST, and LibCST ends the process reading a file marked CRASH_HERE, or
# reading anything in this process (these projects are too small for it to
# read alone): LibCST reads only in other processes, so a crash costs one file.
_CRASHING_RUN = """
import os, sys
import jaxcheck.extraction as extraction
from jaxcheck.loading import lanes
from jaxcheck.config import find_config
from jaxcheck.engine import check

quick, libcst = extraction.quick_facts, extraction.facts_from_source
this_process = os.getpid()

def declining(text, *args):
    return None if "ONLY_LIBCST" in text else quick(text, *args)

def crashing(text, *args):
    if "CRASH_HERE" in text or os.getpid() == this_process:
        os._exit(139)
    return libcst(text, *args)

extraction.quick_facts, extraction.facts_from_source = declining, crashing
if sys.argv[2] == "pool":
    lanes.can_fork = lambda: False
else:
    assert lanes.can_fork()
result = check([sys.argv[1]], find_config, jobs=2, use_cache=False)
for finding in result.findings:
    print(os.path.basename(finding.path), finding.code, finding.message)
print("internal errors:", result.internal_errors)
"""


def _crashing_run(folder: Path, how: str) -> list[str]:
    import subprocess
    import sys

    completed = subprocess.run(
        [sys.executable, "-c", _CRASHING_RUN, str(folder), how], capture_output=True, text=True, timeout=300
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout.splitlines()


@pytest.mark.skipif(os.name != "posix", reason="needs forked workers")
@pytest.mark.parametrize("how", ["lanes", "pool"])
def test_a_worker_that_dies_costs_only_its_file(tmp_path: Path, how: str) -> None:
    # Enough files to share the reading, half of them only LibCST reads, and
    # two modules read in a later wave of their own, only by LibCST too.
    bases = "from helpa import Base1\nfrom helpb import Base2\n"
    for number in range(20):
        text = bases + BUGGY + "\nclass Car(Base1, Base2):\n    pass\n" + "# ONLY_LIBCST\n" * (number % 2)
        (tmp_path / f"buggy{number:02}.py").write_text(text)
    for name, base in (("helpa", "Base1"), ("helpb", "Base2")):
        (tmp_path / f"{name}.py").write_text(f"class {base}:\n    pass\n# ONLY_LIBCST\n")
    (tmp_path / "crash.py").write_text("x = 1  # static_argnums CRASH_HERE ONLY_LIBCST\n")
    lines = _crashing_run(tmp_path, how)
    crashed = [line for line in lines if line.startswith("crash.py")]
    assert len(crashed) == 1 and " JAX000 " in crashed[0] and "crashed" in crashed[0], lines
    assert len([line for line in lines if line.split()[1] in ("JAX101", "JAX102")]) == 40
    assert lines[-1] == "internal errors: 1"


@pytest.mark.skipif(os.name != "posix", reason="needs forked workers")
@pytest.mark.parametrize("how", ["lanes", "pool"])
def test_a_worker_that_dies_reading_a_file_with_findings_with_libcst_costs_only_that_file(tmp_path: Path, how: str) -> None:
    for number in range(20):
        (tmp_path / f"buggy{number:02}.py").write_text(BUGGY)
    (tmp_path / "crash.py").write_text(BUGGY + "# CRASH_HERE\n")  # ast reads it; LibCST, for its findings, crashes
    lines = _crashing_run(tmp_path, how)
    assert [line.split()[1] for line in lines if line.startswith("crash.py")] == ["JAX000"], lines
    assert len([line for line in lines if line.split()[1] in ("JAX101", "JAX102")]) == 40
    assert lines[-1] == "internal errors: 1"


def test_facts_too_deep_to_encode_come_back_from_a_worker_as_they_are(monkeypatch) -> None:
    from jaxcheck.loading import loader

    job = ("m.py", "import jax\nf = jax.jit(g, static_argnums=0)\n", "m", False, False)
    expected = loader._parse_job(job)
    assert loader._decoded(loader._encoded_parse_job(job)) == expected
    assert isinstance(loader._encoded_parse_job(job)[0], tuple)  # sent encoded

    def too_deep(facts):
        raise RecursionError

    monkeypatch.setattr(loader, "encode", too_deep)
    assert loader._decoded(loader._encoded_parse_job(job)) == expected


_REFUSED_RUN = """
import os, sys
import libcst
from jaxcheck.loading import lanes, loader
from jaxcheck.config import find_config
from jaxcheck.engine import check

assert lanes.can_fork()
this_process = os.getpid()
parse_module = libcst.parse_module

def get(pool):
    raise AssertionError("the pool was started")

def crashing(text, *args, **kwargs):  # LibCST, asked too whether a refused text is newer syntax
    if os.getpid() == this_process:
        os._exit(139)
    return parse_module(text, *args, **kwargs)

loader.Pool.get = get
libcst.parse_module = crashing
if len(sys.argv) > 2:  # the first child asked Python's verdicts dies on them (a crash in native code)
    asked = loader._syntax_chunk

    def dying(jobs):
        if os.getpid() != this_process and not os.path.exists(sys.argv[2]):
            open(sys.argv[2], "w").close()
            os._exit(139)
        return asked(jobs)

    loader._syntax_chunk = dying
result = check([sys.argv[1]], find_config, jobs=2, use_cache=False)
for finding in result.findings:
    print(os.path.basename(finding.path), finding.code)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="lanes fork on Linux only")
@pytest.mark.parametrize("a_child_dies", [False, True], ids=["children-live", "the-helper-dies"])
def test_the_verdicts_of_refused_files_asked_in_lanes_are_kept(tmp_path: Path, a_child_dies: bool) -> None:
    """Python's verdict on the checked files not parsed is asked of the
    helper (LibCST, which it may ask, never runs in this process); a refusal
    is kept, not asked again of a pool (whose threads would keep the run from
    forking after). When the child asked dies, what it had not answered is
    asked again of forked children, not of this process."""
    import subprocess

    project = tmp_path / "project"
    project.mkdir()
    for number in range(20):
        (project / f"buggy{number:02}.py").write_text(BUGGY)
        (project / f"py2_{number:02}.py").write_text("print 'hello'\n")
    died = tmp_path / "died"
    command = [sys.executable, "-c", _REFUSED_RUN, str(project), *([str(died)] if a_child_dies else [])]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert died.exists() == a_child_dies
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert sorted(line for line in lines if line.startswith("py2_")) == [f"py2_{n:02}.py JAX000" for n in range(20)]
    assert len([line for line in lines if line.split()[1] in ("JAX101", "JAX102")]) == 40
