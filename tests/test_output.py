"""What users see of a `jaxcheck check` run: the output formats, colour,
`--quiet`, `--output-file`, standard input and the progress line.

The CLI runs in-process (`jaxcheck.cli.main`) where the test controls the
streams, and in a subprocess where a real pipe, terminal or standard input
matters. The findings come from a real JAX bug (helpers.BUGGY), except for
the writers' tests of related places and fix titles, whose findings are made
here so that every field is set.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import BUG_COLUMN, BUG_LINE, BUGGY, CLEAN, TEXT_LINE, USE_LINE, buggy_at, located, text_findings, write
from jaxcheck.cli import main
from jaxcheck.findings import Finding, Related
from jaxcheck.report import progress as progress_module
from jaxcheck.report.formats import message_of, write_full, write_json, write_sarif
from jaxcheck.report.ranges import end_of_code

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
CLASS_LINE = "class Vehicle:"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path/pkg/a.py is the buggy program; the tests run in tmp_path, with no colour asked of the environment."""
    write(tmp_path, "pkg/a.py", BUGGY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


def run_main(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = main(["check", "--jobs", "1", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_with_stdin(text: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


def run_on_a_terminal(*args: str, cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    """`jaxcheck check` with its standard output on a pseudo-terminal: (exit code, what the terminal got)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "jaxcheck", "check", *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
        env=env,
    )
    os.close(follower)
    received = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other end is closed: the process is done
            break
        if not chunk:
            break
        received += chunk
    os.close(leader)
    return process.wait(timeout=60), received.decode().replace("\r\n", "\n")


def environment(**changes: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(changes)
    return env


# --- --output-format and the old --format ----------------------------------------------------------


def test_concise_is_the_default_and_the_old_text_format(project: Path, capsys: pytest.CaptureFixture) -> None:
    outputs = [
        run_main(capsys, *options, "pkg")
        for options in ([], ["--output-format", "concise"], ["--format", "text"], ["--format", "text", "--output-format", "concise"])
    ]
    assert all(output == outputs[0] for output in outputs), outputs
    code, out, err = outputs[0]
    assert code == 1
    assert located(out) == buggy_at("pkg/a.py")
    assert "Found 2 findings in 1 file (1 checked)." in err


@pytest.mark.parametrize("old, new", [("json", "json"), ("sarif", "sarif"), ("github", "github")])
def test_old_format_spelling_gives_the_same_output(project: Path, capsys: pytest.CaptureFixture, old: str, new: str) -> None:
    assert run_main(capsys, "--format", old, "pkg") == run_main(capsys, "--output-format", new, "pkg")


def test_format_and_output_format_that_disagree_are_a_usage_error(project: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["check", "--format", "json", "--output-format", "sarif", "pkg"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "jaxcheck: error: --format json and --output-format sarif disagree" in captured.err


def test_full_shows_the_source_with_a_caret_under_the_finding(project: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run_main(capsys, "--output-format", "full", "pkg")
    assert code == 1
    _, as_json, _ = run_main(capsys, "--output-format", "json", "pkg")
    records = json.loads(as_json)
    blocks = out.split("\n\n")
    assert blocks[-1] == "" and len(blocks) == len(records) + 1, out
    for block, record in zip(blocks, records):
        lines = block.splitlines()
        header = TEXT_LINE.match(lines[0])
        assert header and (header["path"], int(header["line"]), int(header["column"]), header["code"]) == (
            record["path"],
            record["line"],
            record["column"],
            record["code"],
        )
        assert header["message"].endswith(f"[{record['name']}]")
        width = max(len(str(number)) for number in [BUG_LINE + 2, *(place["line"] for place in record["related"])])
        gutter = " " * width + " |"
        # The class line and the two after it (the blank lines before it are left out).
        assert lines[1:7] == [
            gutter,
            f"{BUG_LINE:>{width}} | {CLASS_LINE}",
            f"{gutter} {'^' * len('class Vehicle')}",  # to the class's name
            f"{BUG_LINE + 1:>{width}} |     def __init__(self, num_wheels):",
            f"{BUG_LINE + 2:>{width}} |         self.num_wheels = num_wheels",
            gutter,
        ], block
        # Whatever the rules give: each related place with its line, then the fix.
        rest = lines[7:]
        for place in record["related"]:
            assert rest[0] == " " * width + f"::: {place['path']}:{place['line']}:{place['column']}: {place['note']}"
            source = BUGGY.splitlines()[place["line"] - 1]
            assert rest[2] == f"{place['line']:>{width}} | {source}", block
            rest = rest[5:]
        assert rest == ([f"help: {record['fix']}"] if record["fix"] else []), block


def write_findings_made_here(tmp_path: Path) -> tuple[Finding, Finding]:
    """Two findings with every field set: one in a file with a comment and a
    tab, whose related places are in another file and in a file that is gone;
    one in a file that cannot be read again."""
    write(tmp_path, "m.py", "import jax\n\n\nx = 1\n\tstatic = Config()  # noqa: E501\n\n\nnext_line()\n")
    write(tmp_path, "use.py", "f(static)\nstatic.value = 2\n")
    finding = Finding(
        path=str(tmp_path / "m.py"),
        line=5,
        column=2,
        code="JAX101",
        template="`Config` is mutable",
        fix="Make `Config` a frozen dataclass",
        related=(
            Related(str(tmp_path / "use.py"), 1, 3, "made static here"),
            Related(str(tmp_path / "use.py"), 2, 1, "changed here"),
            Related(str(tmp_path / "gone.py"), 9, 4, "and here"),
        ),
    )
    lost = Finding(path=str(tmp_path / "gone.py"), line=3, column=5, code="JAX102", template="`Other` hashes by identity")
    return finding, lost


def test_full_writes_related_places_and_the_fix(tmp_path: Path) -> None:
    finding, lost = write_findings_made_here(tmp_path)
    out = io.StringIO()
    write_full([finding, lost], out)
    m, use, gone = (str(tmp_path / name) for name in ("m.py", "use.py", "gone.py"))
    assert out.getvalue() == (
        f"{m}:5:2: JAX101 `Config` is mutable [mutable-static]\n"
        "  |\n"
        "4 | x = 1\n"
        "5 |     static = Config()  # noqa: E501\n"  # the tab shown as 4 columns
        "  |     ^^^^^^^^^^^^^^^^^\n"  # from the column to the end of the code, the comment left out
        "  |\n"  # the blank lines after it are left out, and so what comes after them
        f" ::: {use}:1:3: made static here\n"
        "  |\n"
        "1 | f(static)\n"
        "  |   -------\n"
        "  |\n"
        f" ::: {use}:2:1: changed here\n"
        "  |\n"
        "2 | static.value = 2\n"
        "  | ----------------\n"
        "  |\n"
        f" ::: {gone}:9:4: and here\n"  # a file that cannot be read: no source, the place still named
        "help: Make `Config` a frozen dataclass\n"
        "\n"
        f"{gone}:3:5: JAX102 `Other` hashes by identity [identity-hash-static]\n"
        "\n"
    )


def test_json_carries_name_url_fix_end_and_related(tmp_path: Path) -> None:
    finding, lost = write_findings_made_here(tmp_path)
    out = io.StringIO()
    write_json([finding, lost], out)
    first, second = json.loads(out.getvalue())
    assert first == {
        "path": finding.path,
        "line": 5,
        "column": 2,
        "end_line": 5,
        "end_column": len("\tstatic = Config()") + 1,  # not Python (an indent): the rest of the line's code
        "code": "JAX101",
        "name": "mutable-static",
        "message": "`Config` is mutable. Make `Config` a frozen dataclass. [mutable-static]",
        "fix": "Make `Config` a frozen dataclass",
        "url": "https://github.com/jaxcheck/jaxcheck/blob/main/rules/JAX101.md",
        "related": [
            {"path": place.path, "line": place.line, "column": place.column, "note": place.note}
            for place in finding.related
        ],
    }
    # A file that cannot be read again: the end is the start.
    assert (second["end_line"], second["end_column"], second["fix"], second["related"]) == (3, 5, None, [])
    assert second["message"] == message_of(lost) == "`Other` hashes by identity [identity-hash-static]"


def test_sarif_carries_related_locations_and_regions_with_ends(tmp_path: Path) -> None:
    finding, _ = write_findings_made_here(tmp_path)
    out = io.StringIO()
    write_sarif([finding], out)
    (result,) = json.loads(out.getvalue())["runs"][0]["results"]
    assert result["message"]["text"] == message_of(finding)
    assert "fixes" not in result  # a SARIF fix carries edits; the title is in the message
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 5, "startColumn": 2, "endLine": 5, "endColumn": len("\tstatic = Config()") + 1}
    related = result["relatedLocations"]
    assert [location["id"] for location in related] == [0, 1, 2]
    assert [location["message"]["text"] for location in related] == ["made static here", "changed here", "and here"]
    assert [location["physicalLocation"]["region"] for location in related] == [
        {"startLine": 1, "startColumn": 3, "endLine": 1, "endColumn": len("f(static)") + 1},
        {"startLine": 2, "startColumn": 1, "endLine": 2, "endColumn": len("static.value = 2") + 1},
        {"startLine": 9, "startColumn": 4, "endLine": 9, "endColumn": 4},
    ]
    assert related[0]["physicalLocation"]["artifactLocation"]["uri"] == (tmp_path / "use.py").as_uri()


@pytest.mark.parametrize(
    "line, column, end",
    [
        ("x = f(a)", 1, 9),
        ("x = f(a)  # a comment", 5, 9),
        ("s = '#' + t  # a comment", 1, 12),  # a `#` in a string is not a comment
        ("y = g(a,  # the call goes on", 1, 9),  # a line of a longer statement
        ("    return x   ", 5, 13),
        ("", 1, 1),
        ("ab", 7, 7),  # never before the start
    ],
)
def test_the_end_of_a_related_place_is_after_the_code_of_its_line(line: str, column: int, end: int) -> None:
    assert end_of_code(line, column) == end


def test_a_class_finding_ends_after_the_class_name(project: Path, capsys: pytest.CaptureFixture) -> None:
    (project / "pkg" / "a.py").write_text(BUGGY.replace(CLASS_LINE, f"{CLASS_LINE}  # a comment"))
    _, out, _ = run_main(capsys, "--output-format", "json", "pkg")
    assert {(r["line"], r["column"], r["end_line"], r["end_column"]) for r in json.loads(out)} == {
        (BUG_LINE, BUG_COLUMN, BUG_LINE, len("class Vehicle") + 1)
    }


RANGED = """\
import jax


def f(x, sizes):
    return x


g = jax.jit(f, static_argnames="sizes")
y = g(1, sizes=[3,
                1]) + 1  # the list, not the rest of the line
"""


@pytest.mark.parametrize("output_format", ["json", "sarif", "full"])
def test_a_finding_s_range_is_its_expression(project: Path, capsys: pytest.CaptureFixture, output_format: str) -> None:
    """Issue 44, item 19: the caret, the squiggle and the region cover `[3, 1]`, not the rest of the line."""
    (project / "pkg" / "a.py").write_text(RANGED)
    _, out, _ = run_main(capsys, "--output-format", output_format, "pkg")
    if output_format == "json":
        (record,) = json.loads(out)
        assert (record["line"], record["column"], record["end_line"], record["end_column"]) == (9, 16, 10, 19)
    elif output_format == "sarif":
        (result,) = json.loads(out)["runs"][0]["results"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region == {"startLine": 9, "startColumn": 16, "endLine": 10, "endColumn": 19}
    else:
        assert " 9 | y = g(1, sizes=[3,\n   |                ^^^\n" in out, out  # to the end of its first line


def test_statistics_follow_full_output(project: Path, capsys: pytest.CaptureFixture) -> None:
    _, out, _ = run_main(capsys, "--output-format", "full", "--statistics", "pkg")
    assert out.endswith("\n\n1     JAX101 mutable-static\n1     JAX102 identity-hash-static\n")


# --- colour -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("output_format", ["concise", "full"])
def test_color_always_paints_and_only_paints(project: Path, capsys: pytest.CaptureFixture, output_format: str) -> None:
    _, painted, _ = run_main(capsys, "--output-format", output_format, "--color", "always", "pkg")
    _, plain, _ = run_main(capsys, "--output-format", output_format, "pkg")  # capsys is no terminal
    assert ANSI.search(painted) and not ANSI.search(plain)
    assert ANSI.sub("", painted) == plain
    assert "\x1b[1;31mJAX101\x1b[0m" in painted  # the code in bold red, as ruff shows it
    if output_format == "full":
        assert f"\x1b[1;31m{'^' * len('class Vehicle')}\x1b[0m" in painted  # the caret too


@pytest.mark.parametrize("output_format", ["json", "sarif", "github"])
def test_machine_formats_are_never_coloured(project: Path, capsys: pytest.CaptureFixture, monkeypatch, output_format: str) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, out, _ = run_main(capsys, "--output-format", output_format, "--color", "always", "pkg")
    assert out and not ANSI.search(out)


@pytest.mark.parametrize(
    "variables, option, coloured",
    [
        ({}, "auto", False),
        ({"FORCE_COLOR": "1"}, "auto", True),
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, "auto", False),
        ({"FORCE_COLOR": "1"}, "never", False),
        ({"NO_COLOR": "1"}, "always", True),
    ],
)
def test_colour_when_piped(project: Path, capsys, monkeypatch, variables: dict, option: str, coloured: bool) -> None:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    _, out, err = run_main(capsys, "--color", option, "pkg")
    assert bool(ANSI.search(out)) == coloured
    assert not ANSI.search(err)  # the summary is never painted


@pytest.mark.parametrize("variables, option, coloured", [({}, "auto", True), ({"NO_COLOR": "1"}, "auto", False), ({}, "never", False)])
def test_colour_on_a_terminal(project: Path, variables: dict, option: str, coloured: bool) -> None:
    code, shown = run_on_a_terminal("--color", option, "pkg", cwd=project, env=environment(**variables))
    assert code == 1
    assert bool(ANSI.search(shown)) == coloured, shown
    assert located(ANSI.sub("", shown)) == buggy_at("pkg/a.py")


# --- --quiet and --output-file -----------------------------------------------------------------------


def test_quiet_prints_the_findings_only(project: Path, capsys: pytest.CaptureFixture) -> None:
    write(project, "pkg/a.pyi", "class Vehicle: ...\n")  # a stub beside its module: skipped with a note
    code, out, err = run_main(capsys, "pkg", "pkg/a.pyi")
    assert "jaxcheck: note: pkg/a.pyi skipped" in err and "Found 2 findings" in err
    assert (code, located(out)) == (1, buggy_at("pkg/a.py"))
    assert run_main(capsys, "--quiet", "pkg", "pkg/a.pyi") == (1, out, "")
    assert run_main(capsys, "-q", "--output-format", "json", "pkg")[2] == ""


@pytest.mark.parametrize("output_format", ["concise", "full", "json", "sarif", "github"])
def test_output_file_gets_the_findings_and_stderr_the_summary(
    project: Path, capsys: pytest.CaptureFixture, monkeypatch, output_format: str
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")  # a file is never painted (as ruff's --output-file)
    _, expected, _ = run_main(capsys, "--output-format", output_format, "--color", "never", "pkg")
    code, out, err = run_main(capsys, "--output-format", output_format, "--output-file", "reports/out.txt", "pkg")
    assert (code, out) == (1, "")
    assert (project / "reports" / "out.txt").read_text(encoding="utf-8") == expected
    assert err == "Found 2 findings in 1 file (1 checked).\n"


def test_output_file_that_cannot_be_written_is_an_error(project: Path, capsys: pytest.CaptureFixture) -> None:
    (project / "taken").write_text("")
    code, out, err = run_main(capsys, "--output-file", "taken/out.txt", "pkg")
    assert (code, out) == (2, "")
    assert err.startswith("jaxcheck: error: ") and "taken/out.txt" in err


# --- standard input ---------------------------------------------------------------------------------------


def test_stdin_alone_is_spelled_dash(tmp_path: Path) -> None:
    completed = run_with_stdin(BUGGY, "-", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    findings = text_findings(completed.stdout)
    assert {finding[:4] for finding in findings} == buggy_at("-")
    assert all(f"at line {USE_LINE}" in message for *_, message in findings)


USES_A_NEIGHBOUR = """\
import jax

from pkg.vehicle import Vehicle


@jax.jit(static_argnums=0)
def f(x):
    return x.num_wheels


for _ in range(3):
    car = Vehicle(2)
    f(car)
car.num_wheels = 4
"""
NEIGHBOUR = "class Vehicle:\n    def __init__(self, num_wheels):\n        self.num_wheels = num_wheels\n"


def test_stdin_filename_judges_the_text_as_that_file_of_its_project(tmp_path: Path) -> None:
    # The project's config (JAX102 ignored) and its other modules (the class) count.
    write(tmp_path, "proj/pyproject.toml", '[tool.jaxcheck]\nignore = ["JAX102"]\n')
    write(tmp_path, "proj/pkg/__init__.py", "")
    write(tmp_path, "proj/pkg/vehicle.py", NEIGHBOUR)
    completed = run_with_stdin(USES_A_NEIGHBOUR, "-", "--stdin-filename", "proj/pkg/use.py", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    ((path, line, column, code, message),) = text_findings(completed.stdout)
    assert (path, line, column, code) == ("proj/pkg/vehicle.py", 1, 1, "JAX101")
    assert "proj/pkg/use.py:13" in message
    # Without the name, the text is a file of its own, as in flake8's stdin mode: no class, no finding.
    alone = run_with_stdin(USES_A_NEIGHBOUR, "-", cwd=tmp_path)
    assert (alone.returncode, alone.stdout) == (0, ""), alone.stderr


def test_stdin_text_replaces_the_file_on_disk(tmp_path: Path) -> None:
    write(tmp_path, "a.py", CLEAN)
    completed = run_with_stdin(BUGGY, "--output-format", "full", "--stdin-filename", "a.py", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    assert completed.stdout.startswith(f"a.py:{BUG_LINE}:{BUG_COLUMN}: JAX101 ")
    assert f"{BUG_LINE} | {CLASS_LINE}\n" in completed.stdout  # the snippet is of the text judged, not of the disk's


def test_stdin_that_cannot_be_decoded_is_a_jax000(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", "-"], input=b'x = "\xff"\n', capture_output=True, cwd=tmp_path, timeout=60
    )
    assert completed.returncode == 1, completed.stderr
    assert completed.stdout.decode().startswith("-:1:1: JAX000 cannot decode")


def test_stdin_with_other_paths_is_a_usage_error(tmp_path: Path) -> None:
    write(tmp_path, "a.py", CLEAN)
    completed = run_with_stdin(BUGGY, "-", "a.py", cwd=tmp_path)
    assert (completed.returncode, completed.stdout) == (2, "")
    assert "jaxcheck: error: - (standard input) cannot be checked with other paths" in completed.stderr


# --- the progress line ----------------------------------------------------------------------------------


@pytest.fixture
def many_files(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project of nine buggy modules, and a progress line that shows at once and at every file."""
    write(project, "pyproject.toml", "[project]\nname = 'p'\n")
    for number in range(8):
        write(project, f"pkg/m{number}.py", BUGGY.replace("Vehicle", f"Vehicle{number}"))
    monkeypatch.setattr(progress_module.Progress, "delay", 0)
    monkeypatch.setattr(progress_module.Progress, "interval", 0)
    monkeypatch.setenv("TERM", "xterm")
    return project


def on_terminal_stderr(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    """`main` with its stderr on a pseudo-terminal: (exit code, stdout, what the terminal got)."""
    leader, follower = pty.openpty()
    terminal = open(follower, "w", encoding="utf-8", closefd=True)
    monkeypatch.setattr(sys, "stderr", terminal)
    code = main(["check", "--jobs", "1", *args])
    terminal.close()
    received = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        received += chunk
    os.close(leader)
    return code, capsys.readouterr().out, received.decode().replace("\r\n", "\n")


def test_progress_is_shown_on_a_terminal_and_erased(many_files: Path, monkeypatch, capsys) -> None:
    code, out, shown = on_terminal_stderr(monkeypatch, capsys, "--no-cache", "pkg")
    assert code == 1 and len(located(out)) == 18
    counts = [(int(done), int(total)) for done, total in re.findall(r"\rjaxcheck: parsed (\d+)/(\d+) files\x1b\[K", shown)]
    assert counts and counts[-1] == (9, 9), shown
    assert [done for done, _ in counts] == sorted(done for done, _ in counts)
    # Erased before the summary, which starts on a clean line.
    assert shown.endswith("\r\x1b[KFound 18 findings in 9 files (9 checked).\n"), shown


def test_progress_is_not_shown_when_piped_quiet_or_warm(many_files: Path, monkeypatch, capsys) -> None:
    code, _, err = run_main(capsys, "--no-cache", "pkg")  # capsys's stderr is no terminal
    assert code == 1 and "parsed" not in err and "\r" not in err
    assert "parsed" not in on_terminal_stderr(monkeypatch, capsys, "--no-cache", "--quiet", "pkg")[2]
    assert "parsed 9/9" in on_terminal_stderr(monkeypatch, capsys, "pkg")[2]  # the cache is filled
    assert on_terminal_stderr(monkeypatch, capsys, "pkg")[2] == "Found 18 findings in 9 files (9 checked).\n"


# --- --show-settings ---------------------------------------------------------------------------------------


def test_show_settings_names_the_output_format(project: Path, capsys: pytest.CaptureFixture) -> None:
    write(project, "pyproject.toml", '[tool.jaxcheck]\nprofile = "strict"\ntarget-jax-version = "0.11"\n')
    code, out, _ = run_main(capsys, "--show-settings", "--output-format", "full", "pkg")
    assert code == 0
    assert f"  config file: {project / 'pyproject.toml'}\n" in out
    assert "  profile: strict\n" in out and "  output format: full\n" in out
    assert re.search(r"^  target JAX: .*0\.11", out, re.MULTILINE), out
    assert "  output format: concise\n" in run_main(capsys, "--show-settings", "pkg")[1]
