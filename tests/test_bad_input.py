"""Bad input never crashes a run (SPEC 4): one JAX000 with the reason, every other file checked.

Each bad file holds the text `static_argnums`, or the pre-filter would skip it
before any decoding or parsing. Each sits next to the buggy program, whose
findings must still be reported, with exit code 1.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from helpers import BOTH, BUG_LINE, BUGGY, buggy_at, flake8_run, jaxcheck_run, write
from jaxcheck.failures import internal_error
from jaxcheck.findings import reason
from jaxcheck.loading.source import MAX_BYTES, SourceError, read_bytes

# The same program with the class indented: findings at line 4, column 5.
INDENTED = BUGGY.replace(
    "class Vehicle:\n    def __init__(self, num_wheels):\n        self.num_wheels = num_wheels\n",
    "if True:\n    class Vehicle:\n        def __init__(self, num_wheels):\n            self.num_wheels = num_wheels\n",
).replace("\n\n\nif True:", "\n\nif True:")


def jaxcheck_json(*args: str, cwd: Path) -> tuple[int, list[tuple[str, int, int, str, str]], str]:
    completed = jaxcheck_run("check", "--format", "json", *args, cwd=cwd)
    assert "Traceback" not in completed.stderr, completed.stderr
    try:
        records = json.loads(completed.stdout)
    except json.JSONDecodeError:
        records = []  # e.g. the process died; the exit code assertion reports it
    found = [(r["path"], r["line"], r["column"], r["code"], r["message"]) for r in records]
    return completed.returncode, found, completed.stderr


def check_next_to_buggy(tmp_path: Path, name: str, data: bytes) -> tuple[int, list, list]:
    """Write the bad file and the buggy one; return the exit code, the bad file's and the buggy file's findings."""
    (tmp_path / "buggy.py").write_text(BUGGY)
    (tmp_path / name).write_bytes(data)
    code, found, _ = jaxcheck_json(".", cwd=tmp_path)
    bad = [finding for finding in found if finding[0] == f"./{name}"]
    buggy = [finding for finding in found if finding[0] == "./buggy.py"]
    assert len(bad) + len(buggy) == len(found), found
    return code, bad, buggy


def assert_buggy_reported(code: int, buggy: list) -> None:
    assert code == 1
    assert {finding[:4] for finding in buggy} == buggy_at("./buggy.py")


def assert_one_jax000(bad: list, line: int | None, reason: str) -> str:
    assert len(bad) == 1, bad
    _, got_line, column, code, message = bad[0]
    assert code == "JAX000"
    if line is not None:
        assert got_line == line
    assert column >= 1
    assert re.search(reason, message, re.IGNORECASE), message
    return message


# --- files that cannot be parsed or decoded ---------------------------------------------------------


# Bad files, each with the text `static_argnums` so that the pre-filter lets it through.
SYNTAX_ERROR = b"import jax\n\n\nx = = 1  # static_argnums\n"
NOT_UTF8 = b"import jax\n\xff\xfe\x00\n# static_argnums\n"
NULL_BYTE = b"import jax\nx = 1\n\x00\n# static_argnums\n"
PYTHON2 = b'import jax\n# static_argnums\nprint "x"\n'
PYTHON2_SINGLE_QUOTES = b"import jax\n# static_argnums\nprint 'x'\n"
SYNTAX_ERROR_IN_DEF = b"import jax\n\n\ndef f(:  # static_argnums\n    pass\n"
UNKNOWN_CODING = b"# -*- coding: no-such-codec -*-\n# static_argnums\n"
# Refused by Python; LibCST parses it but cannot build its tree (`CSTValidationError`).
STR_AND_BYTES = b'# static_argnums\nx = "a" b"b"\n'


@pytest.mark.parametrize(
    "name, source, line, reason",
    [
        pytest.param("broken.py", SYNTAX_ERROR, 4, r"syntax error", id="syntax-error"),
        # CPython and flake8's E999: line 4
        pytest.param("broken.py", SYNTAX_ERROR_IN_DEF, 4, r"syntax", id="syntax-error-line-in-def"),
        pytest.param("odd.py", UNKNOWN_CODING, 1, r"unknown encoding.*no-such-codec", id="unknown-coding-cookie"),
        pytest.param("nul.py", NULL_BYTE, None, r"parse", id="null-byte"),
        pytest.param("old.py", PYTHON2, 3, r"syntax error", id="python2-syntax"),
        # The message gives the reason for a parse error.
        pytest.param("broken.py", SYNTAX_ERROR, None, r"expected|invalid syntax", id="syntax-error-reason"),
        pytest.param("broken.py", PYTHON2_SINGLE_QUOTES, None, r"expected|print", id="python2-print-reason"),
        pytest.param("broken.py", NULL_BYTE, None, r"null|\\0|\\x00", id="null-byte-reason"),
        pytest.param("mixed.py", STR_AND_BYTES, 2, r"^cannot parse: syntax error: cannot mix bytes", id="str-and-bytes"),
    ],
)
def test_bad_file_is_one_jax000(tmp_path: Path, name: str, source: bytes, line: int | None, reason: str) -> None:
    code, bad, buggy = check_next_to_buggy(tmp_path, name, source)
    assert_buggy_reported(code, buggy)
    assert_one_jax000(bad, line, reason)


def test_not_utf8(tmp_path: Path) -> None:
    code, bad, buggy = check_next_to_buggy(tmp_path, "binary.py", NOT_UTF8)
    assert_buggy_reported(code, buggy)
    message = assert_one_jax000(bad, 1, r"decode")
    assert "utf-8" in message.lower()


def test_unreadable_file(tmp_path: Path) -> None:
    (tmp_path / "buggy.py").write_text(BUGGY)
    secret = tmp_path / "secret.py"
    secret.write_text(BUGGY)
    secret.chmod(0)
    try:
        if os.access(secret, os.R_OK):
            pytest.skip("running as a user who can read a mode-000 file (root)")
        code, found, _ = jaxcheck_json(".", cwd=tmp_path)
    finally:
        secret.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert_buggy_reported(code, [f for f in found if f[0] == "./buggy.py"])
    assert_one_jax000([f for f in found if f[0] == "./secret.py"], 1, r"cannot read.*permission denied")


def test_dangling_symlink(tmp_path: Path) -> None:
    """An unreadable file that root cannot read either."""
    (tmp_path / "buggy.py").write_text(BUGGY)
    (tmp_path / "gone.py").symlink_to(tmp_path / "missing.py")
    code, found, _ = jaxcheck_json(".", cwd=tmp_path)
    assert_buggy_reported(code, [f for f in found if f[0] == "./buggy.py"])
    assert_one_jax000([f for f in found if f[0] == "./gone.py"], 1, r"cannot read")


# --- files that are not regular files, or are too large: never read (issue 16, items 1 and 2) --------------

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


@needs_fifo
@pytest.mark.parametrize("named", [False, True], ids=["found-by-the-walk", "named-on-the-command-line"])
def test_a_fifo_is_one_jax000_and_never_blocks(tmp_path: Path, named: bool) -> None:
    (tmp_path / "buggy.py").write_text(BUGGY)
    os.mkfifo(tmp_path / "pipe.py")  # opened for reading, it waits for a writer that never comes
    code, found, _ = jaxcheck_json(*(["buggy.py", "pipe.py"] if named else ["."]), cwd=tmp_path)
    prefix = "" if named else "./"
    assert_buggy_reported(code, [(f"./{f[0]}" if named else f[0], *f[1:]) for f in found if f[0].endswith("buggy.py")])
    assert_one_jax000([f for f in found if f[0] == f"{prefix}pipe.py"], 1, r"cannot read: a FIFO, not a regular file")


@needs_fifo
def test_a_fifo_in_an_excluded_folder_or_beside_the_file_flake8_checks_is_not_read(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.jaxcheck]\nexclude = ["generated/"]\n')
    (tmp_path / "buggy.py").write_text(BUGGY)
    (tmp_path / "generated").mkdir()
    os.mkfifo(tmp_path / "generated" / "pipe.py")  # the fingerprint reads every file of the project
    code, found, _ = jaxcheck_json(".", cwd=tmp_path)
    assert_buggy_reported(code, found)
    (tmp_path / "pyproject.toml").unlink()
    os.mkfifo(tmp_path / "other.py")
    completed = flake8_run("buggy.py", cwd=tmp_path)
    assert completed.returncode == 1 and "JAX101" in completed.stdout, completed.stderr


def test_a_link_out_of_the_project_is_not_read_and_a_note_says_so(tmp_path: Path) -> None:
    """Issue 44, item 1: `ln -s /proc/self/environ env.py` in a pull request
    must not print the job's environment as the source around a JAX000."""
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "buggy.py").write_text(BUGGY)
    (tmp_path / "z.py").symlink_to("/dev/zero")  # read to its end, it fills memory
    (tmp_path / "secret.txt").write_text("TOKEN=hunter2\n")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.py"
    outside.write_text("TOKEN = 'hunter2'  # static_argnums\n")
    (tmp_path / "env.py").symlink_to(outside)
    (tmp_path / "mod.py").symlink_to(tmp_path / "buggy.py")  # inside the project: checked once, as its target
    completed = jaxcheck_run("check", "--output-format", "full", ".", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    assert "hunter2" not in completed.stdout + completed.stderr
    assert "z.py" not in completed.stdout and "env.py" not in completed.stdout
    for name in ("z.py", "env.py"):
        assert f"jaxcheck: note: ./{name} skipped: a link to a file outside the project" in completed.stderr, completed.stderr
    code, found, _ = jaxcheck_json(".", cwd=tmp_path)
    assert_buggy_reported(code, [f for f in found if f[0] == "./buggy.py"])


def test_a_device_named_on_the_command_line_is_one_jax000(tmp_path: Path) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    (tmp_path / "buggy.py").write_text(BUGGY)
    code, found, _ = jaxcheck_json(".", "/dev/zero", cwd=tmp_path)
    assert_buggy_reported(code, [f for f in found if f[0] == "./buggy.py"])
    assert_one_jax000([f for f in found if f[0] == "/dev/zero"], 1, r"a character device, not a regular file")


def test_a_file_above_the_size_limit_is_one_jax000(tmp_path: Path) -> None:
    (tmp_path / "buggy.py").write_text(BUGGY)
    with open(tmp_path / "huge.py", "wb") as handle:
        handle.truncate(MAX_BYTES + 1)  # sparse: nothing is written
    code, found, _ = jaxcheck_json(".", cwd=tmp_path)
    assert_buggy_reported(code, [f for f in found if f[0] == "./buggy.py"])
    assert_one_jax000([f for f in found if f[0] == "./huge.py"], 1, r"larger than 16 MiB")


def test_the_size_limit_is_checked_on_what_is_read_not_on_what_stat_says(tmp_path: Path) -> None:
    path = tmp_path / "grown.py"
    path.write_bytes(b"x = 1\n" * 100)
    assert read_bytes(str(path), limit=600) == b"x = 1\n" * 100
    with pytest.raises(SourceError, match="larger than"):
        read_bytes(str(path), limit=599)


# --- files that must decode and be checked normally ----------------------------------------------------


def test_latin1_coding_cookie_is_decoded_and_checked(tmp_path: Path) -> None:
    source = b"# -*- coding: latin-1 -*-\n# caf\xe9 au lait\n" + BUGGY.encode()
    write(tmp_path, "latin.py", source)
    code, found, _ = jaxcheck_json("latin.py", cwd=tmp_path)
    assert code == 1
    assert {finding[:4] for finding in found} == buggy_at("latin.py", line=BUG_LINE + 2)


@pytest.mark.parametrize("program, column", [(BUGGY, 1), (INDENTED, 5)], ids=["top-level", "indented"])
@pytest.mark.parametrize(
    "variant",
    [
        pytest.param(lambda text: b"\xef\xbb\xbf" + text.encode(), id="bom"),
        pytest.param(lambda text: text.replace("\n", "\r\n").encode(), id="crlf"),
        pytest.param(lambda text: text.replace("\n", "\r").encode(), id="cr"),
        pytest.param(lambda text: b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode(), id="bom-crlf"),
    ],
)
def test_bom_and_line_endings_give_the_same_findings(tmp_path: Path, program: str, column: int, variant) -> None:
    (tmp_path / "plain.py").write_text(program)
    (tmp_path / "variant.py").write_bytes(variant(program))
    code, found, _ = jaxcheck_json("plain.py", "variant.py", cwd=tmp_path)
    assert code == 1
    plain = [finding[1:] for finding in found if finding[0] == "plain.py"]
    changed = [finding[1:] for finding in found if finding[0] == "variant.py"]
    assert {finding[:3] for finding in plain} == {(BUG_LINE, column, "JAX101"), (BUG_LINE, column, "JAX102")}
    assert [finding[:3] for finding in changed] == [finding[:3] for finding in plain]


def test_noqa_with_crlf(tmp_path: Path) -> None:
    source = BUGGY.replace("class Vehicle:", "class Vehicle:  # noqa: JAX101").replace("\n", "\r\n")
    write(tmp_path, "a.py", source.encode())
    code, found, _ = jaxcheck_json("a.py", cwd=tmp_path)
    assert code == 1
    assert {finding[:4] for finding in found} == buggy_at("a.py", {"JAX102"})


# --- all of them in one run -----------------------------------------------------------------------------


def test_every_bad_file_in_one_run(tmp_path: Path) -> None:
    bad_files = {
        "broken.py": (SYNTAX_ERROR, 4),
        "binary.py": (NOT_UTF8, 1),
        "nul.py": (NULL_BYTE, None),
        "old.py": (PYTHON2, 3),
    }
    for name, (data, _) in bad_files.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "buggy.py").write_text(BUGGY)
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + BUGGY.encode())
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + BUGGY.encode())
    code, found, stderr = jaxcheck_json(".", cwd=tmp_path)
    assert code == 1, stderr
    for name, (_, line) in bad_files.items():
        assert_one_jax000([f for f in found if f[0] == f"./{name}"], line, r".")
    expected = buggy_at("./buggy.py") | buggy_at("./bom.py") | buggy_at("./latin.py", line=BUG_LINE + 2)
    assert {f[:4] for f in found if f[3] != "JAX000"} == expected


# --- inputs that break the parser itself ---------------------------------------------------------------


def _nested(depth: int) -> bytes:
    return ("# static_argnums\nx = " + "[" * depth + "]" * depth + "\n").encode()


def test_too_deeply_nested_is_bad_input(tmp_path: Path) -> None:
    code, bad, buggy = check_next_to_buggy(tmp_path, "deep.py", _nested(300))
    assert_buggy_reported(code, buggy)
    message = assert_one_jax000(bad, None, r"nest|parse")
    assert "jaxcheck failed" not in message


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_parser_crash_does_not_end_the_run(tmp_path: Path, jobs: str) -> None:
    (tmp_path / "deep.py").write_bytes(_nested(3000))
    for number in range(20):  # enough files for --jobs 2 to use a process pool
        (tmp_path / f"buggy{number:02}.py").write_text(BUGGY)
    code, found, _ = jaxcheck_json("--jobs", jobs, ".", cwd=tmp_path)
    assert code == 1
    assert len([f for f in found if f[0] == "./deep.py" and f[3] == "JAX000"]) == 1
    assert len([f for f in found if f[3] in BOTH]) == 40


def test_flake8_and_the_cli_agree_on_a_text_libcst_parses_but_cannot_build(tmp_path: Path) -> None:
    write(tmp_path, "mixed.py", STR_AND_BYTES)
    completed = flake8_run("mixed.py", cwd=tmp_path, select="JAX,E999")  # flake8 says E999 where the CLI says JAX000
    assert "failed" not in completed.stdout and "E999 SyntaxError: cannot mix bytes" in completed.stdout, completed.stdout


@pytest.mark.parametrize("error", [MemoryError(), ValueError(""), RecursionError("  ")], ids=lambda e: type(e).__name__)
def test_a_jax000_always_says_what_went_wrong(error: BaseException) -> None:
    try:
        raise error
    except BaseException as raised:  # a traceback, as a real failure has
        message = internal_error("m.py", raised).message
    assert f"({type(error).__name__}: {type(error).__name__} at " in message
    assert reason(error) == type(error).__name__


@pytest.mark.skipif(os.name == "nt", reason="no `:` in Windows file names")
def test_a_colon_in_a_file_name_loses_nothing(tmp_path: Path) -> None:
    """Issue 16, item 9: a `:` is also how a local's key joins its function and
    name; a module named `a:b` must not be split there. Cold, warm and flake8.
    (Reproduced on 994ffbb; it passes at the commit that adds this test.)"""
    write(tmp_path, "a:b.py", BUGGY)
    for _ in range(2):  # cold, then from the cache
        code, found, _ = jaxcheck_json(".", cwd=tmp_path)
        assert {f[:4] for f in found if f[0] == "./a:b.py"} == buggy_at("./a:b.py")
    completed = flake8_run("a:b.py", cwd=tmp_path)
    assert {line.split(" ")[1] for line in completed.stdout.splitlines()} == BOTH, completed.stdout


# --- what is not checked is said (issue 16, items 11 and 12) ----------------------------------------


def test_a_stub_beside_its_source_is_skipped_with_a_note(tmp_path: Path) -> None:
    write(tmp_path, "m.py", BUGGY)
    write(tmp_path, "m.pyi", BUGGY)  # the same module: the `.py` is the code
    write(tmp_path, "alone.pyi", BUGGY)  # a stub with no source beside it is read
    write(tmp_path, "nb.ipynb", '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')  # read (issue 17)
    completed = jaxcheck_run("check", ".", "nb.ipynb", cwd=tmp_path)
    assert "jaxcheck: note: ./m.pyi skipped: a stub of the same module as m.py, which is checked" in completed.stderr
    assert "nb.ipynb" not in completed.stderr
    assert completed.stderr.rstrip().endswith("(3 checked, 1 skipped)."), completed.stderr
    assert {line.split(":")[0] for line in completed.stdout.splitlines()} == {"./m.py", "./alone.pyi"}


@pytest.mark.parametrize("a_project", [False, True])
def test_a_folder_that_cannot_be_listed_is_named(tmp_path: Path, monkeypatch, capsys, a_project) -> None:
    # Root lists a mode-000 folder anyway, so the refusal is made by hand. A
    # project's folder given is walked once for the run and its loader.
    from jaxcheck.cli import main

    if a_project:
        write(tmp_path, "pyproject.toml", "[project]\nname = 'x'\n")
    write(tmp_path, "buggy.py", BUGGY)
    write(tmp_path, "locked/inside.py", BUGGY)
    locked = str(tmp_path / "locked")
    scandir = os.scandir

    def refusing(path="."):
        if os.path.abspath(path) == locked:
            raise PermissionError(13, "Permission denied", path)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", "."]) == 1
    err = capsys.readouterr().err
    assert "jaxcheck: note: ./locked skipped: cannot read the folder: Permission denied" in err, err


def test_a_link_to_a_folder_is_not_followed(tmp_path: Path) -> None:
    """Issue 16, item 15: `ln -s /usr x` walked all of /usr. As flake8's own
    discovery, the walk does not follow links to folders (a file linked is read)."""
    outside = tmp_path / "outside"
    write(outside, "elsewhere.py", BUGGY)
    project = tmp_path / "project"
    write(project, "pyproject.toml", "")
    write(project, "buggy.py", BUGGY)
    (project / "ext").symlink_to(outside, target_is_directory=True)
    (project / "loop").symlink_to(project, target_is_directory=True)
    code, found, _ = jaxcheck_json(".", cwd=project)
    assert_buggy_reported(code, found)  # nothing from ./ext/elsewhere.py, and ./buggy.py once
