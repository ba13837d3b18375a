"""What a run says when something goes wrong, or when the code it is given is
hostile: a crash is never exit 1 (CI reads 1 as "findings"), a file name
cannot inject lines into any output, flake8 and the command judge the same
files the same way, and a run that checks nothing says so (issue 44)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from helpers import flake8_here, jaxcheck_here, write

ROOT = Path(__file__).resolve().parent.parent

UNHASHABLE = "import jax\n\n\ndef h(x, n):\n    return x\n\n\ng = jax.jit(h, static_argnums=1)\ng(1, [1, 2])\n"


def _project(tmp_path: Path) -> Path:
    write(tmp_path, "pyproject.toml", "")
    return tmp_path


def test_an_internal_error_is_exit_2_with_one_line_that_says_where_to_report_it(tmp_path, monkeypatch):
    """issue 44, item 8: an uncaught exception exited 1, the "findings"
    status, with a traceback; `--exit-zero` hid it."""
    import jaxcheck.engine

    def broken(*args, **kwargs):
        raise RuntimeError("a bug of ours")

    monkeypatch.setattr(jaxcheck.engine, "check", broken)
    write(_project(tmp_path), "a.py", UNHASHABLE)
    for extra in ([], ["--exit-zero"]):
        completed = jaxcheck_here("check", *extra, ".", cwd=tmp_path)
        assert completed.returncode == 2, completed.stderr
        (line,) = completed.stderr.splitlines()
        assert re.fullmatch(
            r"jaxcheck: internal error: RuntimeError: a bug of ours at \w+\.py:\d+; "
            r"please report it at https://github\.com/jaxcheck/jaxcheck/issues",
            line,
        ), line


def test_ctrl_c_exits_130_without_a_traceback(tmp_path, monkeypatch):
    """issue 44, item 8: Ctrl-C printed a traceback and exited 1."""
    import jaxcheck.engine

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(jaxcheck.engine, "check", interrupted)
    write(_project(tmp_path), "a.py", UNHASHABLE)
    completed = jaxcheck_here("check", ".", cwd=tmp_path)
    assert completed.returncode == 130
    assert completed.stderr == "jaxcheck: interrupted\n"


def test_version_is_answered_without_loading_the_engine():
    """issue 44, item 20: `--version` imported the whole engine."""
    import subprocess

    program = "import sys; from jaxcheck.cli import main; main(['--version']); print(sorted(sys.modules))"
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    version, modules = completed.stdout.splitlines()
    assert version.startswith("jaxcheck ")
    assert "jaxcheck.engine" not in modules and "jaxcheck.rules" not in modules, modules


@pytest.mark.parametrize("output_format", ["concise", "full", "github"])
def test_a_newline_in_a_file_name_cannot_start_a_line_of_its_own(tmp_path, output_format):
    """issue 44, item 12: a file named `x\\n::error file=...` wrote a GitHub
    workflow command, and a line of its own in the concise format."""
    folder = "we\n::error file=evil.py::pwned"
    write(_project(tmp_path), f"{folder}/x.py", UNHASHABLE)
    completed = jaxcheck_here("check", "--output-format", output_format, ".", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    assert not any(line.startswith("::error file=evil.py") for line in completed.stdout.splitlines())
    assert "we\\n" in completed.stdout


@pytest.mark.skipif(sys.platform != "linux", reason="a file name that is not UTF-8 needs a byte-named file system")
@pytest.mark.parametrize("output_format", ["concise", "full", "json", "sarif", "github"])
def test_a_file_name_that_is_not_utf8_is_reported_in_every_format(tmp_path, output_format):
    """issue 44, item 12: a file name with a byte that is not UTF-8 crashed `--output-format sarif`."""
    _project(tmp_path)
    folder = os.path.join(os.fsencode(tmp_path), b"bad\xff")
    os.mkdir(folder)
    with open(os.path.join(folder, b"x.py"), "w", encoding="utf-8") as stream:
        stream.write(UNHASHABLE)
    completed = jaxcheck_here("check", "--output-format", output_format, ".", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    if output_format == "sarif":
        (result,) = json.loads(completed.stdout)["runs"][0]["results"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad%FF/x.py"
    elif output_format == "json":
        (record,) = json.loads(completed.stdout)
        assert os.fsencode(record["path"]) == b"./bad\xff/x.py"
    else:
        assert "bad\\xff/x.py" in completed.stdout
        completed.stdout.encode("utf-8")  # what a terminal or a log is given is text


SOURCES_PYTHON_WILL_NOT_COMPILE = {
    "return_outside.py": "def f():\n    pass\n\n\nreturn 1\n",
    "repeated_keyword.py": "x = dict(a=1, a=1)\n",
}


def test_flake8_reports_a_file_python_will_not_compile_as_the_command_does(tmp_path):
    """issue 44, item 13: `jaxcheck check` reported JAX000 for a file that
    parses but does not compile and holds no JAX text; flake8 reported nothing."""
    _project(tmp_path)
    for name, text in SOURCES_PYTHON_WILL_NOT_COMPILE.items():
        write(tmp_path, name, text)
    write(tmp_path, "fine.py", "x = 1\n")
    names = sorted([*SOURCES_PYTHON_WILL_NOT_COMPILE, "fine.py"])
    command = jaxcheck_here("check", *names, cwd=tmp_path)
    flake8 = flake8_here(*names, cwd=tmp_path)
    reported = {line.split(":")[0] for line in command.stdout.splitlines()}
    assert reported == set(SOURCES_PYTHON_WILL_NOT_COMPILE), command.stdout
    assert sorted(flake8.stdout.splitlines()) == sorted(command.stdout.splitlines())


def test_a_folder_without_python_files_is_a_warning(tmp_path):
    """issue 44, item 20: a folder with no Python files printed "Found 0
    findings in 0 files" and nothing else."""
    (_project(tmp_path) / "empty").mkdir()
    completed = jaxcheck_here("check", "empty", cwd=tmp_path)
    assert completed.returncode == 0
    assert "jaxcheck: warning: no Python files found under empty" in completed.stderr


def test_a_path_that_does_not_exist_is_not_counted_as_checked(tmp_path):
    """issue 44, item 20: a path that does not exist was counted as "1 checked"."""
    write(_project(tmp_path), "a.py", "x = 1\n")
    completed = jaxcheck_here("check", "a.py", "missing.py", cwd=tmp_path)
    assert completed.returncode == 1
    assert "missing.py:1:1: JAX000 cannot read" in completed.stdout
    assert "(1 checked, 1 not found)" in completed.stderr


def test_show_settings_says_jax001_is_on_only_when_named(tmp_path):
    """issue 44, item 20: `--show-settings` said "select: every code" while JAX001 is off unless named."""
    completed = jaxcheck_here("check", "--show-settings", ".", cwd=_project(tmp_path))
    assert "select: every code but JAX001 (on only when named)" in completed.stdout
    named = jaxcheck_here("check", "--show-settings", "--extend-select", "JAX001", ".", cwd=tmp_path)
    assert "extend-select: JAX001" in named.stdout


def test_the_license_the_package_declares_is_in_the_repository():
    """issue 44, item 21: `pyproject.toml` said Apache-2.0 and there was no LICENSE file."""
    declared = re.search(r'^license = "(.*)"$', (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.M)
    assert declared is not None and declared[1] == "Apache-2.0"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text and "END OF TERMS AND CONDITIONS" in text


def test_a_rule_that_fails_is_reported_in_a_file_checked_and_exits_2(tmp_path, monkeypatch):
    """A rule that raised was reported in the first file the model held, which
    a run checking another file of the project did not show: "Found 0
    findings", exit 0, on a run that judged nothing."""
    import jaxcheck.rules.recompiles as recompiles

    def broken(self, model):
        raise RuntimeError("a bug of ours")
        yield

    monkeypatch.setattr(recompiles.JitRecreatedPerCall, "check", broken)
    write(_project(tmp_path), "pkg/__init__.py", "")
    write(tmp_path, "pkg/a_first.py", "import jax\n")
    write(tmp_path, "pkg/z_checked.py", UNHASHABLE)
    completed = jaxcheck_here("check", "--no-cache", "pkg/z_checked.py", cwd=tmp_path)
    assert completed.returncode == 2, completed.stdout + completed.stderr
    assert "pkg/z_checked.py:1:1: JAX000 jaxcheck failed while judging the project (RuntimeError: a bug of ours" in completed.stdout
    assert "JAX106" in completed.stdout  # the other rules were run


def test_a_stopped_pool_reads_no_more_in_this_process():
    # A language server that exits between two runs of its workers must not go
    # on reading the rest of a project here (the pool has one worker left then).
    from jaxcheck.loading.pool import Pool, Stopped

    pool = Pool(2)
    read = []
    pool.stop()
    with pytest.raises(Stopped):
        pool.map(read.append, list(range(100)))
    assert read == []
    reading = Pool(1)
    stop_after_three = lambda item: (read.append(item), len(read) == 3 and reading.stop())  # noqa: E731
    with pytest.raises(Stopped):
        reading.map(stop_after_three, list(range(100)))
    assert read == [0, 1, 2]
