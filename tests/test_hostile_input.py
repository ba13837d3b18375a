"""Files a project ships that are built to hurt the run (issue 44): a baseline
that is a link, a FIFO, a device or nested without end, and a pyproject.toml
nested without end or naming a version with thousands of digits.

Each must end the run with exit 2 and one `jaxcheck: error: ...` line naming
the file, or a JAX000 under flake8: never a write through a link, a hang, a
traceback or an internal error. Runs are in-process (`jaxcheck_here`), but for
the FIFO and `/dev/zero`, whose failure before the fix is a hang or a run out
of memory: those run in a subprocess with a timeout and a memory limit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import BUGGY, flake8_here, jaxcheck_here, write

LINKS = pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="needs symbolic links")


def check(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return jaxcheck_here("check", "--no-cache", "--jobs", "1", *args, cwd=cwd)


def project(root: Path) -> Path:
    """A project at root (its pyproject.toml) with one file that has findings."""
    write(root, "pyproject.toml", "[project]\nname = 'demo'\n")
    write(root, "a.py", BUGGY)
    return root


def a_config_error(completed: subprocess.CompletedProcess, file: Path, *words: str) -> None:
    """Exit 2 with one `jaxcheck: error: FILE: ...` (or `FILE [tool.jaxcheck]: ...`) line that says `words`."""
    assert completed.returncode == 2, completed.stderr
    assert "Traceback" not in completed.stderr and "internal error" not in completed.stderr, completed.stderr
    assert completed.stderr.startswith((f"jaxcheck: error: {file}: ", f"jaxcheck: error: {file} [tool.jaxcheck]: ")), completed.stderr
    assert completed.stderr.count("\n") == 1, completed.stderr
    for word in words:
        assert word in completed.stderr, completed.stderr


def a_baseline_error(completed: subprocess.CompletedProcess, *words: str) -> None:
    assert completed.returncode == 2, completed.stderr
    assert "Traceback" not in completed.stderr and "internal error" not in completed.stderr, completed.stderr
    assert completed.stderr.startswith("jaxcheck: error: "), completed.stderr
    for word in words:
        assert word in completed.stderr, completed.stderr


def run_in_a_subprocess(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`jaxcheck check ARGS` in a process of its own, given half a minute and a gigabyte:
    a run that would hang or fill memory fails the test instead of the suite."""

    def limit_memory() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    return subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", "--no-cache", "--jobs", "1", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=30,
        preexec_fn=limit_memory,
    )


# --- item 3: the baseline and symbolic links -------------------------------------------------------


@LINKS
@pytest.mark.parametrize("update", [False, True])
def test_a_baseline_that_is_a_link_is_neither_read_nor_written(tmp_path: Path, update: bool) -> None:
    """issue 44, item 3: a shipped `jaxcheck-baseline.json` linked to the user's
    `~/.bashrc` is refused, and the file it points to is left as it was."""
    root = project(tmp_path / "proj")
    bashrc = write(tmp_path, "home/.bashrc", "export PATH=$HOME/bin:$PATH\n")
    (root / "jaxcheck-baseline.json").symlink_to(bashrc)
    completed = check("--baseline", "jaxcheck-baseline.json", *(["--update-baseline"] if update else []), ".", cwd=root)
    a_baseline_error(completed, "jaxcheck-baseline.json", "symbolic link")
    assert bashrc.read_text() == "export PATH=$HOME/bin:$PATH\n"
    assert (root / "jaxcheck-baseline.json").is_symlink()


@LINKS
def test_a_dangling_link_as_baseline_creates_nothing(tmp_path: Path) -> None:
    """issue 44, item 3: a baseline linked to a file that does not exist is not
    written: the run would create the link's target wherever it points."""
    root = project(tmp_path / "proj")
    (tmp_path / "x").mkdir()
    (root / "jaxcheck-baseline.json").symlink_to(tmp_path / "x" / "newfile")
    completed = check("--baseline", "jaxcheck-baseline.json", ".", cwd=root)
    a_baseline_error(completed, "jaxcheck-baseline.json", "symbolic link")
    assert not (tmp_path / "x" / "newfile").exists()


@LINKS
def test_a_baseline_behind_a_linked_folder_must_stay_in_the_project(tmp_path: Path) -> None:
    """issue 44, item 3: `--baseline meta/base.json` where `meta` links out of the
    project is refused; a link to a folder inside the project is fine."""
    root = project(tmp_path / "proj")
    (tmp_path / "elsewhere").mkdir()
    (root / "meta").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    completed = check("--baseline", "meta/base.json", ".", cwd=root)
    a_baseline_error(completed, "meta/base.json", "outside")
    assert not (tmp_path / "elsewhere" / "base.json").exists()
    (root / "real").mkdir()
    (root / "alias").symlink_to(root / "real", target_is_directory=True)
    completed = check("--baseline", "alias/base.json", ".", cwd=root)
    assert completed.returncode == 0, completed.stderr
    assert json.loads((root / "real" / "base.json").read_text())["findings"]


def test_a_baseline_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch) -> None:
    """issue 44, item 3: the baseline is written to a temporary file beside it,
    then moved over it: a write that fails leaves the old baseline as it was,
    and no temporary file."""
    root = project(tmp_path / "proj")
    assert check("--baseline", "base.json", ".", cwd=root).returncode == 0
    before = (root / "base.json").read_text()
    write(root, "b.py", BUGGY)
    real_replace = os.replace

    def no_room(source, target, *args, **kwargs):
        if str(target).endswith("base.json"):
            raise OSError(28, "No space left on device")
        return real_replace(source, target, *args, **kwargs)

    monkeypatch.setattr(os, "replace", no_room)
    completed = check("--baseline", "base.json", "--update-baseline", ".", cwd=root)
    a_baseline_error(completed, "cannot write the baseline base.json", "No space left on device")
    assert (root / "base.json").read_text() == before
    assert sorted(path.name for path in root.iterdir()) == ["a.py", "b.py", "base.json", "pyproject.toml"]


# --- item 9: a baseline that is not a baseline ------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_baseline_is_refused_at_once(tmp_path: Path) -> None:
    """issue 44, item 9: a FIFO named as the baseline is refused; reading it
    would wait forever for a writer."""
    root = project(tmp_path / "proj")
    os.mkfifo(root / "bl.json")
    completed = run_in_a_subprocess("--baseline", "bl.json", "a.py", cwd=root)
    a_baseline_error(completed, "bl.json", "FIFO")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_as_baseline_is_refused(tmp_path: Path) -> None:
    """issue 44, item 9: `/dev/zero` as the baseline is a device, not a file:
    reading it would fill memory."""
    root = project(tmp_path / "proj")
    completed = run_in_a_subprocess("--baseline", "/dev/zero", "a.py", cwd=root)
    a_baseline_error(completed, "/dev/zero", "character device")


def test_a_huge_baseline_is_refused_unread(tmp_path: Path) -> None:
    """issue 44, item 9: a baseline above 64 MiB is not one jaxcheck wrote; it is
    refused before it is read (the file is sparse: it costs no disk)."""
    root = project(tmp_path / "proj")
    with open(root / "bl.json", "wb") as stream:
        stream.truncate(65 * 2**20)
    a_baseline_error(check("--baseline", "bl.json", "a.py", cwd=root), "bl.json", "larger than 64 MiB")


def baseline_of(findings) -> str:
    return json.dumps({"version": 1, "findings": findings})


ENTRY = {"path": "a.py", "code": "JAX101", "message": "m", "source": "class Vehicle:"}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (baseline_of([{**ENTRY, "path": 1}]), "entry 1: `path` is 1, not a string"),
        (baseline_of([ENTRY, {**ENTRY, "code": None}]), "entry 2: `code` is null, not a string"),
        (baseline_of([ENTRY, ENTRY, {k: v for k, v in ENTRY.items() if k != "source"}]), "entry 3: no `source`"),
        (baseline_of([ENTRY, None]), "entry 2 is null, not an object"),
        (baseline_of([["a.py", "JAX101", "m", "s"]]), "entry 1 is an array, not an object"),
        (json.dumps({"version": 1, "findings": None}), "`findings` is null, not an array"),
        (json.dumps([ENTRY]), "not a jaxcheck baseline"),
        (json.dumps({"version": 2, "findings": []}), "version 2"),
        ("null", "not a jaxcheck baseline"),
    ],
)
def test_a_baseline_with_wrong_types_says_what_is_wrong(tmp_path: Path, text: str, said: str) -> None:
    """issue 44, item 9: every entry is an object of four strings; a baseline
    that is not says which entry and which field, not `'code'`."""
    root = project(tmp_path / "proj")
    write(root, "bl.json", text)
    completed = check("--baseline", "bl.json", "a.py", cwd=root)
    a_baseline_error(completed, "cannot read the baseline bl.json", said)


@pytest.mark.parametrize("inside", [False, True])
def test_a_baseline_nested_without_end_is_a_clear_error(tmp_path: Path, inside: bool) -> None:
    """issue 44, item 9: JSON nested too deep for the parser is an error naming
    the file, not a RecursionError."""
    root = project(tmp_path / "proj")
    deep = "[" * 100_000 + "]" * 100_000
    write(root, "bl.json", '{"version": 1, "findings": %s}' % deep if inside else deep)
    completed = check("--baseline", "bl.json", "a.py", cwd=root)
    a_baseline_error(completed, "cannot read the baseline bl.json", "nested too deeply")


# --- item 10: a pyproject.toml too deep, a version too long -------------------------------------------


DEEP_TOML = "x = " + "[" * 600 + "]" * 600 + "\n"
LONG = "1" * 5000


@pytest.mark.parametrize("show_settings", [False, True])
@pytest.mark.parametrize(
    ("pyproject", "said"),
    [
        ("[tool.other]\n" + DEEP_TOML, "nested too deeply"),
        ("[tool.jaxcheck]\nselect = ['JAX1']\n\n[tool.other]\n" + DEEP_TOML, "nested too deeply"),
        (f'[tool.jaxcheck]\ntarget-jax-version = "{LONG}"\n', "'target-jax-version' must be a JAX release"),
        (f'[tool.poetry.dependencies]\njax = "^{LONG}"\n', "requirement on jax"),
        (f'[tool.poetry.dependencies]\njax = "~{LONG}"\n', "requirement on jax"),
    ],
    ids=["deep-other-table", "deep-beside-jaxcheck", "long-target", "long-poetry-caret", "long-poetry-tilde"],
)
def test_a_hostile_pyproject_is_a_config_error(tmp_path: Path, pyproject: str, said: str, show_settings: bool) -> None:
    """issue 44, item 10: a pyproject.toml nested too deep for the TOML parser,
    or a JAX version with more digits than Python turns into an int, is a
    configuration error naming the file, in a check and in `--show-settings`."""
    file = write(tmp_path, "pyproject.toml", pyproject)
    write(tmp_path, "a.py", BUGGY)
    completed = check(*(["--show-settings"] if show_settings else []), ".", cwd=tmp_path)
    a_config_error(completed, file, said)
    assert len(completed.stderr) < 1000  # the version is not spelled out in full


def test_a_long_target_on_the_command_line_is_a_config_error(tmp_path: Path) -> None:
    """issue 44, item 10: `--target-jax-version` with thousands of digits is refused like any non-version."""
    project(tmp_path)
    completed = check("--target-jax-version", LONG, ".", cwd=tmp_path)
    assert completed.returncode == 2, completed.stderr
    assert completed.stderr.startswith("jaxcheck: error: the command line: 'target-jax-version' must be"), completed.stderr


@pytest.mark.parametrize("requirement", ["jax~=" + "9" * 4300 + ".0", f"jax=={LONG}", f"jax>={LONG}", f"jax=={LONG}.*"])
def test_a_long_version_in_requirements_is_a_config_error(tmp_path: Path, requirement: str) -> None:
    """issue 44, item 10: `jax~=999...0` in requirements.txt, whose next
    release has more digits than Python writes out, crashed the run; any
    requirement on jax with a number of thousands of digits is a
    configuration error naming the file."""
    write(tmp_path, "setup.py", "")
    write(tmp_path, "requirements.txt", f"numpy\n{requirement}\n")
    write(tmp_path, "a.py", BUGGY)
    for show_settings in ([], ["--show-settings"]):
        a_config_error(check(*show_settings, ".", cwd=tmp_path), tmp_path / "requirements.txt", "not a release")


@pytest.mark.parametrize(
    "pyproject",
    ["[tool.other]\n" + DEEP_TOML, f'[tool.jaxcheck]\ntarget-jax-version = "{LONG}"\n', f'[tool.poetry.dependencies]\njax = "^{LONG}"\n'],
    ids=["deep", "long-target", "long-poetry-caret"],
)
def test_a_hostile_pyproject_is_a_jax000_under_flake8(tmp_path: Path, pyproject: str) -> None:
    """issue 44, item 10: under flake8 the same configuration errors are one
    JAX000 at line 1 of the file, not a crash of the plugin."""
    file = write(tmp_path, "pyproject.toml", pyproject)
    write(tmp_path, "a.py", BUGGY)
    completed = flake8_here("a.py", cwd=tmp_path)
    lines = completed.stdout.splitlines()
    assert len(lines) == 1, completed.stdout + completed.stderr
    assert lines[0].startswith(f"a.py:1:1: JAX000 jaxcheck configuration error: {file}"), lines[0][:300]
    assert "Exceeds the limit" not in lines[0] and "Recursion" not in lines[0], lines[0][:300]
