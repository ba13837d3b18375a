"""`jaxcheck check` as a user runs it: the real CLI in a subprocess on small projects.

Every test asserts exact findings (path, line, column, code), exact exit codes
and the key parts of messages, so a regression in any of them fails a test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import jaxcheck
from jaxcheck.rules import CODES
from helpers import (
    BOTH,
    BUG_COLUMN,
    BUG_LINE,
    BUGGY,
    CLEAN,
    USE_LINE,
    buggy_at,
    jaxcheck_run,
    located,
    text_findings,
    write,
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """tmp_path/pkg/a.py is the buggy program."""
    write(tmp_path, "pkg/a.py", BUGGY)
    return tmp_path


# --- exit codes --------------------------------------------------------------------


def test_clean_tree_exits_0(tmp_path: Path) -> None:
    write(tmp_path, "pkg/clean.py", CLEAN)
    write(tmp_path, "pkg/plain.py", "import jax\n\n\n@jax.jit\ndef g(x):\n    return x + 1\n")
    completed = jaxcheck_run("check", ".", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == ""
    assert "Found 0 findings in 0 files (2 checked)." in completed.stderr


def test_findings_exit_1_in_flake8_text_format(project: Path) -> None:
    completed = jaxcheck_run("check", "pkg", cwd=project)
    assert completed.returncode == 1, completed.stderr
    findings = text_findings(completed.stdout)
    assert [finding[:4] for finding in findings] == [
        ("pkg/a.py", BUG_LINE, BUG_COLUMN, "JAX101"),
        ("pkg/a.py", BUG_LINE, BUG_COLUMN, "JAX102"),
    ]
    messages = {code: message for _, _, _, code, message in findings}
    # The message names the class, the static parameter and the static use (path:line).
    for message in messages.values():
        assert "`Vehicle`" in message
        assert "static argument `x` of `f`" in message
        assert f"at line {USE_LINE}" in message  # the use is in the reported file
    assert "mutable" in messages["JAX101"]
    assert "identity" in messages["JAX102"]
    assert "Found 2 findings in 1 file (1 checked)." in completed.stderr


@pytest.mark.parametrize(
    "args, mentions",
    [
        (["check", "--bogus", "."], "--bogus"),
        (["check", "--select", "JAX999", "."], "JAX999"),
        (["check", "--ignore", "JAX999", "."], "JAX999"),
        (["check", "--jobs", "0", "."], "--jobs"),
        (["check", "--jobs", "many", "."], "--jobs"),
        (["check", "--format", "xml", "."], "--format"),
        (["check", "--output-format", "xml", "."], "--output-format"),
        (["check", "--color", "sometimes", "."], "--color"),
    ],
    ids=[
        "unknown-option",
        "select-unknown-code",
        "ignore-unknown-code",
        "jobs-0",
        "jobs-word",
        "format",
        "output-format",
        "color",
    ],
)
def test_usage_errors_exit_2(project: Path, args: list[str], mentions: str) -> None:
    completed = jaxcheck_run(*args, cwd=project)
    assert completed.returncode == 2, (completed.stdout, completed.stderr)
    assert completed.stdout == ""  # no findings are printed on a usage error
    error_lines = [line for line in completed.stderr.splitlines() if line.startswith("jaxcheck: error: ")]
    assert len(error_lines) == 1, completed.stderr
    assert mentions in error_lines[0]
    assert "Traceback" not in completed.stderr


def test_exit_zero_keeps_findings_but_exits_0(project: Path) -> None:
    completed = jaxcheck_run("check", "--exit-zero", "pkg", cwd=project)
    assert completed.returncode == 0, completed.stderr
    assert located(completed.stdout) == buggy_at("pkg/a.py")


# --- --select / --ignore -----------------------------------------------------------


@pytest.mark.parametrize(
    "options, codes",
    [
        (["--select", "JAX102"], {"JAX102"}),
        (["--select", "JAX101"], {"JAX101"}),
        (["--select", "JAX1"], BOTH),
        (["--select", "JAX101,JAX102"], BOTH),
        (["--ignore", "JAX101"], {"JAX102"}),
        (["--ignore", "JAX1"], set()),
        (["--select", "JAX1", "--ignore", "JAX102"], {"JAX101"}),
        (["--select", "JAX000"], set()),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_select_and_ignore(project: Path, options: list[str], codes: set[str]) -> None:
    completed = jaxcheck_run("check", *options, "pkg", cwd=project)
    assert completed.returncode == (1 if codes else 0), completed.stderr
    assert located(completed.stdout) == buggy_at("pkg/a.py", codes)


# --- JSON format and paths ------------------------------------------------------------


@pytest.mark.parametrize(
    "paths, spelled",
    [
        (["."], "./pkg/a.py"),
        ([], "./pkg/a.py"),  # the default path is "."
        (["pkg"], "pkg/a.py"),
        (["pkg/"], "pkg/a.py"),
        (["./pkg"], "./pkg/a.py"),
        (["pkg/a.py"], "pkg/a.py"),
    ],
    ids=["dot", "default", "pkg", "pkg-slash", "dot-pkg", "file"],
)
def test_json_output_and_path_spelling(project: Path, paths: list[str], spelled: str) -> None:
    completed = jaxcheck_run("check", "--format", "json", *paths, cwd=project)
    assert completed.returncode == 1, completed.stderr
    records = json.loads(completed.stdout)
    assert isinstance(records, list)
    assert len(records) == 2
    for record in records:
        assert set(record) == {
            *("path", "line", "column", "end_line", "end_column", "code", "name", "message", "fix", "url", "related")
        }
        # The end: after the code of the reported line (`class Vehicle:`), 1-based and exclusive.
        assert (record["end_line"], record["end_column"]) == (BUG_LINE, len("class Vehicle") + 1)  # after the class name
        assert record["name"] == CODES[record["code"]][0]
        assert record["url"].endswith(f"/rules/{record['code']}.md")
        assert not os.path.isabs(record["path"])
        assert isinstance(record["line"], int) and isinstance(record["column"], int)
        assert "`Vehicle`" in record["message"]
        # Messages name a place in the reported file by its line, whichever way the
        # file was reached (and the same under flake8).
        assert f"at line {USE_LINE}" in record["message"]
    assert {(r["path"], r["line"], r["column"], r["code"]) for r in records} == buggy_at(spelled)


def test_json_and_text_report_the_same_findings(project: Path) -> None:
    as_json = jaxcheck_run("check", "--format", "json", ".", cwd=project)
    as_text = jaxcheck_run("check", ".", cwd=project)
    records = json.loads(as_json.stdout)
    assert [(r["path"], r["line"], r["column"], r["code"], r["message"]) for r in records] == text_findings(
        as_text.stdout
    )


def test_json_on_clean_tree_is_empty_array(tmp_path: Path) -> None:
    write(tmp_path, "clean.py", CLEAN)
    completed = jaxcheck_run("check", "--format", "json", ".", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == []


def test_absolute_path_given_is_kept(project: Path) -> None:
    completed = jaxcheck_run("check", str(project / "pkg"), cwd=project)
    assert completed.returncode == 1
    assert located(completed.stdout) == buggy_at(str(project / "pkg" / "a.py"))


# --- discovery ---------------------------------------------------------------------------


def test_recursion_skips_vcs_caches_and_environments(project: Path) -> None:
    for folder in (".git", "__pycache__", ".venv", "node_modules", "myenv", "lib/.git/objects"):
        write(project, f"{folder}/b.py", BUGGY)
    (project / "myenv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    write(project, "lib/c.py", BUGGY)  # a normal folder next to them is searched
    completed = jaxcheck_run("check", ".", cwd=project)
    assert completed.returncode == 1
    assert located(completed.stdout) == buggy_at("./pkg/a.py") | buggy_at("./lib/c.py")
    assert "(2 checked)" in completed.stderr


def test_jobs_2_gives_the_same_findings_as_jobs_1(tmp_path: Path) -> None:
    expected = set()
    for number in range(24):
        if number % 3 == 0:
            write(tmp_path, f"many/m{number:02}.py", CLEAN)
        else:
            write(tmp_path, f"many/sub{number % 2}/m{number:02}.py", BUGGY.replace("Vehicle", f"Vehicle{number}"))
            expected |= buggy_at(f"many/sub{number % 2}/m{number:02}.py")
    serial = jaxcheck_run("check", "--format", "json", "--jobs", "1", "many", cwd=tmp_path)
    parallel = jaxcheck_run("check", "--format", "json", "--jobs", "2", "many", cwd=tmp_path)
    assert serial.returncode == parallel.returncode == 1, (serial.stderr, parallel.stderr)
    serial_records, parallel_records = json.loads(serial.stdout), json.loads(parallel.stdout)
    assert len(serial_records) == 32
    assert {(r["path"], r["line"], r["column"], r["code"]) for r in serial_records} == expected
    key = lambda r: (r["path"], r["line"], r["column"], r["code"])  # noqa: E731
    assert sorted(parallel_records, key=key) == sorted(serial_records, key=key)


def test_jobs_2_finds_the_syntax_errors_of_files_not_parsed(tmp_path: Path) -> None:
    # Files the build never parses (no JAX in them) have their syntax checked by
    # the workers while the model runs: their errors must be the same as with --jobs 1.
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    write(tmp_path, "pkg/model.py", BUGGY)
    for number in range(40):
        write(tmp_path, f"pkg/plain{number:02}.py", "x = = 1\n" if number % 7 == 0 else f"value = {number}\n")
    serial = jaxcheck_run("check", "--output-format", "json", "--no-cache", "--jobs", "1", ".", cwd=tmp_path)
    parallel = jaxcheck_run("check", "--output-format", "json", "--no-cache", "--jobs", "2", ".", cwd=tmp_path)
    found = {(r["path"], r["line"], r["code"]) for r in json.loads(serial.stdout)}
    assert {(path, code) for path, _, code in found if code == "JAX000"} == {
        (f"./pkg/plain{number:02}.py", "JAX000") for number in range(0, 40, 7)
    }
    assert {(r["path"], r["line"], r["code"]) for r in json.loads(parallel.stdout)} == found
    assert serial.returncode == parallel.returncode == 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_python_s_warnings_on_the_code_checked_stay_off_the_terminal(tmp_path: Path, jobs: str) -> None:
    """An invalid escape is the user's own business (and their compiler's): a
    linter reading the file must not print Python's warning about it."""
    write(tmp_path, "pkg/a.py", BUGGY + 'import re\n\nPATTERN = re.compile("\\d+")\n')
    command = [sys.executable, "-W", "default", "-m", "jaxcheck", "check", "--no-cache", "--jobs", jobs, "pkg"]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert completed.returncode == 1, completed.stderr
    assert "Warning" not in completed.stderr and "Found 2 findings in 1 file" in completed.stderr


def test_the_program_writes_all_it_found_before_it_exits(tmp_path: Path) -> None:
    """The program exits without freeing its objects (`cli.program`): what it
    wrote to a pipe, through a buffer (not unbuffered, as PYTHONUNBUFFERED
    would have it), arrives whole, and the exit status is the run's."""
    for index in range(120):
        write(tmp_path, f"pkg/m{index}.py", BUGGY)
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    command = [sys.executable, "-m", "jaxcheck", "check", "pkg"]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=buffered, timeout=60)
    assert len(completed.stdout) > 16 * 1024
    assert completed.returncode == 1, completed.stderr
    assert len(text_findings(completed.stdout)) == 120 * len(BOTH)
    assert "Found 240 findings in 120 files" in completed.stderr


def test_the_program_ends_quietly_when_its_reader_stops_reading(tmp_path: Path) -> None:
    """`jaxcheck check | head -1`: the lines not read are dropped, without a traceback."""
    for index in range(120):
        write(tmp_path, f"pkg/m{index}.py", BUGGY)
    command = [sys.executable, "-m", "jaxcheck", "check", "--output-format", "full", "pkg"]
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    with subprocess.Popen(command, cwd=tmp_path, env=buffered, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        first = process.stdout.readline()
        process.stdout.close()
        _, errors = process.communicate(timeout=60)
    assert first and process.returncode in (0, 1)
    assert b"Traceback" not in errors and b"Error" not in errors, errors


def test_no_cache_is_accepted(project: Path) -> None:
    completed = jaxcheck_run("check", "--no-cache", "pkg", cwd=project)
    assert completed.returncode == 1, completed.stderr
    assert located(completed.stdout) == buggy_at("pkg/a.py")


# --- other commands ------------------------------------------------------------------------


def test_version(tmp_path: Path) -> None:
    completed = jaxcheck_run("--version", cwd=tmp_path)
    assert completed.returncode == 0
    assert completed.stdout == f"jaxcheck {jaxcheck.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", jaxcheck.__version__)


def test_rules_lists_the_codes(tmp_path: Path) -> None:
    completed = jaxcheck_run("rules", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    listed = {line.split()[0]: line.split()[1] for line in completed.stdout.splitlines() if line.strip()}
    assert {"JAX000", "JAX101", "JAX102", "JAX106"} <= set(listed)
    assert listed["JAX101"] == "mutable-static"
    assert listed["JAX102"] == "identity-hash-static"
    assert listed["JAX106"] == "unhashable-static"


# --- # noqa ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "comment, left",
    [
        ("# noqa: JAX101", {"JAX102"}),
        ("# noqa:JAX102", {"JAX101"}),
        ("# noqa", set()),
        ("# NOQA", set()),
        ("# noqa: JAX1", set()),
        ("# noqa: JAX101,JAX102", set()),
        ("# noqa: JAX101 JAX102", set()),
        ("# noqa: E501", BOTH),
    ],
)
def test_noqa_on_the_class_line(tmp_path: Path, comment: str, left: set[str]) -> None:
    write(tmp_path, "a.py", BUGGY.replace("class Vehicle:", f"class Vehicle:  {comment}"))
    completed = jaxcheck_run("check", "a.py", cwd=tmp_path)
    assert completed.returncode == (1 if left else 0), completed.stderr
    assert located(completed.stdout) == buggy_at("a.py", left)


def test_noqa_on_another_line_does_not_suppress(tmp_path: Path) -> None:
    write(tmp_path, "a.py", BUGGY.replace("    return x.num_wheels", "    return x.num_wheels  # noqa"))
    completed = jaxcheck_run("check", "a.py", cwd=tmp_path)
    assert completed.returncode == 1
    assert located(completed.stdout) == buggy_at("a.py")


def test_every_code_has_its_page_and_fixtures() -> None:
    # The reference `jaxcheck rule CODE` prints, and the proof each rule owes (SPEC 3, 5).
    from jaxcheck.report.pages import rule_page
    from jaxcheck.rules import BAD_INPUT, CODES, UNUSED_NOQA

    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    for code, (name, _) in CODES.items():
        page = rule_page(code)
        assert page is not None and page.startswith(f"# {code} {name}\n"), code
        if code not in (BAD_INPUT, UNUSED_NOQA):  # about files and comments, not JAX: no program misbehaves
            assert list((fixtures / code).glob("fail_*.py")) and list((fixtures / code).glob("pass_*.py")), code


def test_every_rule_page_says_which_jax_releases_it_was_checked_on() -> None:
    # The facts a rule rests on were measured on the releases the suite runs
    # (and, for a fact that changed, on both sides of the change).
    from jaxcheck.model.jax_versions import SUITE_RELEASES, eras
    from jaxcheck.report.pages import rule_page
    from jaxcheck.rules import RULES

    for rule in RULES:
        assert rule.facts, rule.code
        section = rule_page(rule.code).partition("## JAX versions checked\n")[2].partition("\n## ")[0]
        assert section.strip(), f"{rule.code}: no 'JAX versions checked' section"
        flat = " ".join(section.split())
        for release in SUITE_RELEASES:
            assert release in flat, (rule.code, release)
        for key in rule.facts:
            for releases, _ in eras(key):
                assert releases in flat, (rule.code, key)


# A finding with no fix (JAX204), in a project read by two processes.
_BAKED = """\
import jax

SCALES = {"a": 1.0}


@jax.jit
def scaled(x):
    return x * SCALES["a"]


print(scaled(1.0))
SCALES["a"] = 4.0
"""
_LOADS_LIBCST = "import sys; from jaxcheck.cli import main; code = main(sys.argv[1:]); print(code, 'libcst' in sys.modules)"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="children read beside this process on Linux only")
def test_jobs_2_loads_libcst_only_in_the_children_when_no_finding_has_a_fix(tmp_path: Path) -> None:
    """LibCST reads in the helper's children; the summary loads it here only to tell of fixes (a tenth of a second)."""
    write(tmp_path, "pkg/baked.py", _BAKED)
    for number in range(20):
        write(tmp_path, f"pkg/plain{number:02}.py", f"import jax\nvalue = jax.numpy.ones({number})\n")
    command = [sys.executable, "-c", _LOADS_LIBCST, "check", "--no-cache", "--jobs", "2", "pkg"]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "JAX204" in completed.stdout, completed.stderr
    assert completed.stdout.splitlines()[-1] == "1 False", completed.stdout
    write(tmp_path, "pkg/buggy.py", BUGGY)  # JAX101 may have a fix: the summary asks LibCST's tree
    completed = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "JAX101" in completed.stdout and completed.stdout.splitlines()[-1] == "1 True", completed.stdout
