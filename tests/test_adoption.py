"""Adopting jaxcheck on an existing codebase, through the real CLI on tmp projects:
`# noqa` that means what it says (and what flake8 makes of the same comments),
JAX001 unused-noqa, rule names in `--select`/`--ignore`, paths that do not
exist, the baseline, and `--add-noqa`.

Most runs call `jaxcheck.cli.main` in-process (`--jobs 1`) to keep the suite
short; the flake8 comparison and one baseline run are subprocesses.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import BOTH, BUG_LINE, BUGGY, CLEAN, FLAKE8_LINE, buggy_at, flake8_run, jaxcheck_run, located, write
from jaxcheck.cli import main


@pytest.fixture
def run(tmp_path: Path, capsys, monkeypatch):
    """`jaxcheck check ARGS` in tmp_path: (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)

    def run_check(*args: str, cache: bool = False) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(["check", "--jobs", "1", *(() if cache else ("--no-cache",)), *args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run_check


def buggy_noqa(comment: str) -> str:
    return BUGGY.replace("class Vehicle:", f"class Vehicle:  {comment}")


# --- noqa that means what it says ---------------------------------------------------------------


@pytest.mark.parametrize(
    "comment, left",
    [
        ("# noqa: mutable-static", {"JAX102"}),
        ("# noqa: identity-hash-static, JAX101", set()),
        ("# noqa: E501, mutable-static", {"JAX102"}),
        ("# noqa:mutable-static JAX102", set()),
        ("# noqa: JAX101 because it is replaced, never changed", {"JAX102"}),
        ("# noqa: JAX", set()),
        ("# noqa: mutable-statc", BOTH),  # a misspelt name hides nothing
        ("# noqa: JAX999", BOTH),
        ("# noqa: jax101", BOTH),  # codes are matched as written, as flake8 matches them
        ("# noqa:", BOTH),  # as ruff: a list of nothing
        ("# noqa: because it is fine", BOTH),
        ("# noqa", set()),
    ],
)
def test_noqa_takes_codes_prefixes_and_rule_names(run, tmp_path: Path, comment: str, left: set[str]) -> None:
    write(tmp_path, "a.py", buggy_noqa(comment))
    code, out, err = run("a.py")
    assert code == (1 if left else 0), err
    assert located(out) == buggy_at("a.py", left)


def test_flake8_reads_a_rule_name_as_a_bare_noqa(tmp_path: Path) -> None:
    # What flake8 (7.x: `# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?`) does with the
    # same comments: a list that does not start with a code is no list, so the comment is a bare
    # `# noqa` hiding every code; after a code, the list stops at the name, which is dropped.
    write(tmp_path, "name.py", buggy_noqa("# noqa: mutable-static"))
    write(tmp_path, "misspelt.py", buggy_noqa("# noqa: mutable-statc"))
    write(tmp_path, "after_a_code.py", buggy_noqa("# noqa: E501, mutable-static"))
    write(tmp_path, "lower.py", buggy_noqa("# noqa: jax101"))
    completed = flake8_run("name.py", "misspelt.py", "after_a_code.py", "lower.py", cwd=tmp_path)
    assert located(completed.stdout, FLAKE8_LINE) == buggy_at("after_a_code.py") | buggy_at("lower.py")
    cli = jaxcheck_run("check", "name.py", "misspelt.py", "after_a_code.py", "lower.py", cwd=tmp_path)
    assert located(cli.stdout) == (
        buggy_at("name.py", {"JAX102"}) | buggy_at("misspelt.py") | buggy_at("after_a_code.py", {"JAX102"}) | buggy_at("lower.py")
    )


# --- JAX001 unused-noqa -------------------------------------------------------------------------


NOQA_LINES = """\
import jax


class Vehicle:  # noqa: JAX101, JAX203, E501, mutable-statc, JAX999
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels


@jax.jit(static_argnums=0)  # noqa: JAX000, W291
def f(x):  # noqa
    return x.num_wheels  # noqa: JAX1, unused-noqa


for _ in range(3):
    car = Vehicle(2)  # noqa: JAX
    f(car)  # noqa: F401 we keep this one
car.num_wheels = 4
"""


def jax001(out: str) -> dict[int, str]:
    return {int(line.split(":")[1]): line.split(" JAX001 ")[1] for line in out.splitlines() if " JAX001 " in line}


def test_unused_noqa_reports_unused_and_unknown_jax_entries_only(run, tmp_path: Path) -> None:
    write(tmp_path, "a.py", NOQA_LINES)
    code, out, err = run("--extend-select", "JAX001", "a.py")
    assert code == 1, err
    found = jax001(out)
    # Line 4 suppresses JAX101 (JAX102 stays); E501 is flake8's; line 12 names JAX001 itself.
    assert set(found) == {4, 9, 15}
    assert "(unused: JAX203; unknown: mutable-statc, JAX999)" in found[4]
    assert "(unused: JAX000)" in found[9]
    assert "(unused: JAX)" in found[15]  # a prefix does not silence the JAX001 on its own line
    assert "[unused-noqa]" in found[4]
    assert located(out) >= {("a.py", 4, 17, "JAX001"), ("a.py", BUG_LINE, 1, "JAX102")}
    assert ("a.py", BUG_LINE, 1, "JAX101") not in located(out)


@pytest.mark.parametrize(
    "options, reported",
    [
        ([], False),
        (["--select", "JAX"], False),
        (["--select", "JAX0"], False),
        (["--select", "JAX00"], False),
        (["--select", "JAX001"], True),
        (["--select", "unused-noqa"], True),
        (["--extend-select", "JAX001"], True),
        (["--extend-select", "JAX001", "--ignore", "JAX001"], False),
        (["--extend-select", "JAX001", "--ignore", "JAX0"], True),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_unused_noqa_is_on_only_when_named_exactly(run, tmp_path: Path, options: list[str], reported: bool) -> None:
    write(tmp_path, "a.py", CLEAN.replace("class Vehicle:", "class Vehicle:  # noqa: JAX101"))
    code, out, err = run(*options, "a.py")
    assert located(out) == ({("a.py", 7, 17, "JAX001")} if reported else set()), err
    assert code == (1 if reported else 0)


def test_unused_noqa_from_the_config_and_judged_whatever_is_selected(run, tmp_path: Path) -> None:
    # `# noqa: JAX101` on BUGGY's class suppresses a finding the rules make, though only JAX001 is
    # selected: the verdict does not change with the options. A warm cache gives the same.
    write(tmp_path, "pyproject.toml", '[tool.jaxcheck]\nselect = ["JAX001"]\n')
    write(tmp_path, "a.py", buggy_noqa("# noqa: JAX101"))
    write(tmp_path, "b.py", CLEAN.replace("class Vehicle:", "class Vehicle:  # noqa: JAX101"))
    for _ in range(2):
        code, out, err = run(".", cache=True)
        assert located(out) == {("./b.py", 7, 17, "JAX001")}, err
        assert code == 1


def test_unused_noqa_leaves_a_file_that_does_not_parse_alone(run, tmp_path: Path) -> None:
    write(tmp_path, "a.py", "x = (  # noqa: JAX101\n")
    code, out, _ = run("--extend-select", "JAX001", "a.py")
    assert {finding[3] for finding in located(out)} == {"JAX000"}
    assert code == 1


def test_flake8_never_reports_unused_noqa(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.jaxcheck]\nextend-select = ["JAX001"]\n')
    write(tmp_path, "a.py", buggy_noqa("# noqa: JAX101, JAX203"))
    completed = flake8_run("a.py", cwd=tmp_path)
    assert located(completed.stdout, FLAKE8_LINE) == buggy_at("a.py", {"JAX102"})


# --- --select / --ignore / --extend-select with rule names -----------------------------------------


@pytest.mark.parametrize(
    "options, codes",
    [
        (["--select", "mutable-static"], {"JAX101"}),
        (["--select", "Mutable-Static,JAX102"], BOTH),
        (["--ignore", "mutable-static"], {"JAX102"}),
        (["--select", "JAX2", "--extend-select", "identity-hash-static"], {"JAX102"}),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_rule_names_on_the_command_line(run, tmp_path: Path, options: list[str], codes: set[str]) -> None:
    write(tmp_path, "a.py", BUGGY)
    code, out, err = run(*options, "a.py")
    assert located(out) == buggy_at("a.py", codes), err
    assert code == 1


def test_an_unknown_rule_name_is_a_usage_error(run, tmp_path: Path) -> None:
    write(tmp_path, "a.py", BUGGY)
    code, out, err = run("--extend-select", "mutable-statc", "a.py")
    assert code == 2 and out == ""
    assert "unknown code 'mutable-statc'" in err


# --- paths that do not exist ------------------------------------------------------------------------


def test_a_missing_path_is_a_jax000_and_the_rest_is_checked(run, tmp_path: Path) -> None:
    # As ruff: a missing path is a finding (ruff's E902, exit 1), and the other paths are checked.
    write(tmp_path, "a.py", BUGGY)
    code, out, err = run("nope.py", "a.py")
    assert code == 1, err
    assert located(out) == buggy_at("a.py") | {("nope.py", 1, 1, "JAX000")}
    assert "nope.py:1:1: JAX000 cannot read: No such file or directory" in out


def test_a_missing_path_not_selected_is_a_note(run, tmp_path: Path) -> None:
    # As ruff with E902 not selected: a warning naming it, and the exit code of the findings.
    write(tmp_path, "clean.py", CLEAN)
    code, out, err = run("--select", "JAX1", "nope/", "clean.py")
    assert (code, out) == (0, "")
    assert "jaxcheck: note: nope/ not checked: no such file or folder" in err


# --- the baseline ---------------------------------------------------------------------------------


DUPLICATED = """\
import jax


def step(xs):
    for x in xs:
        jax.jit(lambda v: v + 1)(x)
"""
SECOND_CALL = "        jax.jit(lambda v: v + 1)(x)\n"


def test_a_baseline_is_written_when_missing(run, tmp_path: Path) -> None:
    write(tmp_path, "pkg/a.py", BUGGY)
    write(tmp_path, "pkg/step.py", DUPLICATED + SECOND_CALL)
    code, out, err = run("--baseline", "jaxcheck-baseline.json", "pkg")
    assert (code, out) == (0, ""), err
    assert "baseline jaxcheck-baseline.json written: it accepts 4 findings" in err
    text = (tmp_path / "jaxcheck-baseline.json").read_text()
    entries = json.loads(text)["findings"]
    assert [(entry["path"], entry["code"], entry["source"]) for entry in entries] == [
        ("pkg/a.py", "JAX101", "class Vehicle:"),
        ("pkg/a.py", "JAX102", "class Vehicle:"),
        ("pkg/step.py", "JAX401", "jax.jit(lambda v: v + 1)(x)"),
        ("pkg/step.py", "JAX401", "jax.jit(lambda v: v + 1)(x)"),
    ]
    assert all("at line #" in entry["message"] for entry in entries[:2])  # line numbers taken out
    assert not any(":16" in entry["message"] or ":17" in entry["message"] for entry in entries)
    # The same run again writes nothing new: the file is stable.
    assert run("--baseline", "jaxcheck-baseline.json", "--update-baseline", "pkg")[0] == 0
    assert (tmp_path / "jaxcheck-baseline.json").read_text() == text


def test_the_baseline_accepts_moved_findings_and_reports_new_ones(run, tmp_path: Path) -> None:
    write(tmp_path, "pkg/a.py", BUGGY)
    write(tmp_path, "pkg/step.py", DUPLICATED)
    assert run("--baseline", "base.json", "pkg")[0] == 0
    # Lines inserted above every finding: still accepted.
    write(tmp_path, "pkg/a.py", '"""Vehicles."""\n\n# more\n' + BUGGY)
    write(tmp_path, "pkg/step.py", "# a comment\n\n" + DUPLICATED)
    code, out, err = run("--baseline", "base.json", "pkg")
    assert (code, out) == (0, ""), err
    assert "jaxcheck: 3 findings accepted by the baseline base.json" in err
    # A new bug is the only finding; a second equal finding in the same file is beyond the
    # baseline's count of one, and is reported too.
    write(tmp_path, "pkg/b.py", BUGGY)
    write(tmp_path, "pkg/step.py", "# a comment\n\n" + DUPLICATED + SECOND_CALL)
    code, out, err = run("--baseline", "base.json", "pkg")
    assert code == 1, err
    assert located(out) == buggy_at("pkg/b.py") | {("pkg/step.py", 9, 9, "JAX401")}
    assert "Found 3 findings in 2 files" in err


def test_the_baseline_from_another_folder_and_its_refresh(run, tmp_path: Path, monkeypatch) -> None:
    write(tmp_path, "pkg/a.py", BUGGY)
    write(tmp_path, "pkg/b.py", BUGGY)
    assert run("--baseline", "base.json", "pkg")[0] == 0
    # Paths are relative to the baseline's folder, wherever jaxcheck runs from.
    monkeypatch.chdir(tmp_path / "pkg")
    code, out, err = run("--baseline", "../base.json", ".")
    assert (code, out) == (0, ""), err
    monkeypatch.chdir(tmp_path)
    # b.py fixed: its entries are stale, and --update-baseline drops them; a run over a.py alone
    # keeps the entries of the files it did not check.
    write(tmp_path, "pkg/b.py", CLEAN)
    code, _, err = run("--baseline", "base.json", "pkg")
    assert code == 0 and "2 in it no longer found (`--update-baseline` drops them)" in err
    assert run("--baseline", "base.json", "--update-baseline", "pkg/a.py")[0] == 0
    assert len(json.loads((tmp_path / "base.json").read_text())["findings"]) == 4
    code, _, err = run("--baseline", "base.json", "--update-baseline", "pkg")
    assert code == 0 and "updated: it accepts 2 findings" in err
    assert {entry["path"] for entry in json.loads((tmp_path / "base.json").read_text())["findings"]} == {"pkg/a.py"}


def test_a_broken_baseline_is_an_error(run, tmp_path: Path) -> None:
    write(tmp_path, "a.py", BUGGY)
    write(tmp_path, "base.json", "{not json")
    code, out, err = run("--baseline", "base.json", "a.py")
    assert (code, out) == (2, "")
    assert "cannot read the baseline base.json" in err
    assert run("--update-baseline", "a.py")[0] == 2


def test_the_baseline_in_a_subprocess_with_json_output(tmp_path: Path) -> None:
    write(tmp_path, "a.py", BUGGY)
    assert jaxcheck_run("check", "--baseline", "b.json", "a.py", cwd=tmp_path).returncode == 0
    write(tmp_path, "c.py", BUGGY)
    completed = jaxcheck_run("check", "--baseline", "b.json", "--format", "json", ".", cwd=tmp_path)
    assert completed.returncode == 1
    assert {(record["path"], record["code"]) for record in json.loads(completed.stdout)} == {("./c.py", "JAX101"), ("./c.py", "JAX102")}


# --- --add-noqa -------------------------------------------------------------------------------------


def test_add_noqa_keeps_every_other_byte(run, tmp_path: Path) -> None:
    # CRLF line ends, a latin-1 coding cookie and a byte above 127, a noqa comment to merge into.
    source = "# -*- coding: latin-1 -*-\n# caf\xe9\n" + BUGGY.replace("class Vehicle:", "class Vehicle:  # noqa: E501")
    source += "print(1)  # noqa: JAX101\n"
    original = source.replace("\n", "\r\n").encode("latin-1")
    write(tmp_path, "a.py", original)
    write(tmp_path, "step.py", DUPLICATED)
    code, out, err = run("--add-noqa", ".")
    assert (code, out) == (0, ""), err
    assert "Added `# noqa` to 2 lines in 2 files." in err
    expected = original.replace(b"class Vehicle:  # noqa: E501", b"class Vehicle:  # noqa: E501, JAX101, JAX102")
    assert (tmp_path / "a.py").read_bytes() == expected
    assert (tmp_path / "step.py").read_text() == DUPLICATED.replace("(x)\n", "(x)  # noqa: JAX401\n")
    code, out, err = run(".")
    assert (code, out) == (0, ""), err


def test_add_noqa_leaves_bad_input_and_unsafe_lines_alone(run, tmp_path: Path) -> None:
    write(tmp_path, "broken.py", "import jax\nx = (\n")
    backslash = BUGGY.replace("class Vehicle:", "class \\\n    Vehicle:")
    write(tmp_path, "backslash.py", backslash)
    code, _, err = run("--add-noqa", ".")
    assert code == 0
    assert (tmp_path / "broken.py").read_text() == "import jax\nx = (\n"
    assert (tmp_path / "backslash.py").read_text() == backslash
    assert "backslash.py:4: no `# noqa` added: the line ends inside a string or after a backslash" in err
    assert "Added `# noqa` to 0 lines in 0 files." in err


def test_add_noqa_with_a_baseline_adds_only_to_new_findings(run, tmp_path: Path) -> None:
    write(tmp_path, "a.py", BUGGY)
    assert run("--baseline", "b.json", "a.py")[0] == 0
    write(tmp_path, "c.py", BUGGY)
    assert run("--baseline", "b.json", "--add-noqa", ".")[0] == 0
    assert (tmp_path / "a.py").read_text() == BUGGY
    assert (tmp_path / "c.py").read_text() == buggy_noqa("# noqa: JAX101, JAX102")
