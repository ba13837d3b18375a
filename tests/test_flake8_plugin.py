"""The flake8 plugin as a user runs it: real flake8 in a subprocess, compared with the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import BUGGY, CLEAN, FLAKE8_LINE, buggy_at, flake8_run, jaxcheck_run, located, write

# The class is indented, so its findings are at column 5: checks flake8's 0-based/1-based conversion.
INDENTED = """\
import jax

if True:
    class Truck:
        def __init__(self, axles):
            self.axles = axles


@jax.jit(static_argnames="t")
def g(t):
    return t.axles


for _ in range(2):
    truck = Truck(3)
    g(t=truck)
truck.axles = 4
"""

NO_STATIC = """\
import jax


class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels


@jax.jit
def f(x):
    return x.num_wheels
"""

def no_crash(completed: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in completed.stderr, completed.stderr
    assert "PluginExecutionFailed" not in completed.stderr + completed.stdout


# --- same findings as the CLI --------------------------------------------------------------------


def test_buggy_file_same_lines_as_cli(tmp_path: Path) -> None:
    write(tmp_path, "a.py", BUGGY)
    by_flake8 = flake8_run("a.py", cwd=tmp_path)
    by_cli = jaxcheck_run("check", "a.py", cwd=tmp_path)
    no_crash(by_flake8)
    assert by_flake8.returncode == 1
    assert by_cli.returncode == 1
    assert located(by_flake8.stdout) == buggy_at("a.py")
    assert by_flake8.stdout.splitlines() == by_cli.stdout.splitlines()


def test_folder_same_lines_as_cli(tmp_path: Path) -> None:
    write(tmp_path, "proj/a.py", BUGGY)
    write(tmp_path, "proj/clean.py", CLEAN)
    write(tmp_path, "proj/plain.py", NO_STATIC)
    write(tmp_path, "proj/sub/__init__.py", "")
    write(tmp_path, "proj/sub/indented.py", INDENTED)
    write(tmp_path, "proj/sub/b.py", BUGGY.replace("Vehicle", "Bike"))
    by_flake8 = flake8_run("proj", cwd=tmp_path)
    by_cli = jaxcheck_run("check", "proj", cwd=tmp_path)
    no_crash(by_flake8)
    assert by_flake8.returncode == by_cli.returncode == 1
    assert located(by_flake8.stdout) == (
        buggy_at("proj/a.py") | buggy_at("proj/sub/b.py") | buggy_at("proj/sub/indented.py", line=4, column=5)
    )
    assert sorted(by_flake8.stdout.splitlines()) == sorted(by_cli.stdout.splitlines())


@pytest.mark.slow
def test_bundled_fixtures_same_lines_as_cli() -> None:
    # Every rule's fixtures, each shape flagged the same by both channels (default profile).
    root = Path(__file__).resolve().parent.parent
    by_flake8 = flake8_run("fixtures", cwd=root)
    by_cli = jaxcheck_run("check", "fixtures", cwd=root)
    no_crash(by_flake8)
    assert by_flake8.returncode == by_cli.returncode == 1
    assert len(located(by_cli.stdout)) > 50
    assert located(by_flake8.stdout) == located(by_cli.stdout)


def test_config_select_exclude_and_per_file_ignores_same_as_cli(tmp_path: Path) -> None:
    write(
        tmp_path,
        "pyproject.toml",
        textwrap.dedent(
            """\
            [tool.jaxcheck]
            ignore = ["JAX106"]
            exclude = ["generated/", "*_pb2.py"]

            [tool.jaxcheck.per-file-ignores]
            "**/tests/*" = ["JAX101"]
            """
        ),
    )
    for relative in ("a.py", "tests/t.py", "generated/g.py", "m_pb2.py"):
        write(tmp_path, relative, BUGGY)
    by_flake8 = flake8_run(".", cwd=tmp_path)
    by_cli = jaxcheck_run("check", ".", cwd=tmp_path)
    no_crash(by_flake8)
    assert located(by_flake8.stdout) == buggy_at("./a.py") | buggy_at("./tests/t.py", {"JAX102"})
    assert sorted(by_flake8.stdout.splitlines()) == sorted(by_cli.stdout.splitlines())


def test_reinclude_below_excluded_folder_same_as_cli(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.jaxcheck]\nexclude = ["generated/", "!generated/keep.py"]\n')
    write(tmp_path, "a.py", BUGGY)
    write(tmp_path, "generated/keep.py", BUGGY)
    by_flake8 = flake8_run(".", cwd=tmp_path)
    by_cli = jaxcheck_run("check", ".", cwd=tmp_path)
    assert sorted(by_flake8.stdout.splitlines()) == sorted(by_cli.stdout.splitlines())
    # As in .gitignore, a file cannot be re-included when its folder is excluded.
    assert located(by_flake8.stdout) == buggy_at("./a.py")


# --- noqa ---------------------------------------------------------------------------------------


def test_noqa_honoured_by_flake8_and_disable_noqa_shows_it(tmp_path: Path) -> None:
    write(tmp_path, "a.py", BUGGY.replace("class Vehicle:", "class Vehicle:  # noqa: JAX101"))
    honoured = flake8_run("a.py", cwd=tmp_path)
    no_crash(honoured)
    assert honoured.returncode == 1
    assert located(honoured.stdout) == buggy_at("a.py", {"JAX102"})
    assert honoured.stdout.splitlines() == jaxcheck_run("check", "a.py", cwd=tmp_path).stdout.splitlines()
    disabled = flake8_run("--disable-noqa", "a.py", cwd=tmp_path)
    assert disabled.returncode == 1
    assert located(disabled.stdout) == buggy_at("a.py")


def test_bare_noqa_silences_flake8(tmp_path: Path) -> None:
    write(tmp_path, "a.py", BUGGY.replace("class Vehicle:", "class Vehicle:  # noqa"))
    completed = flake8_run("a.py", cwd=tmp_path)
    assert completed.returncode == 0, completed.stdout
    assert completed.stdout == ""


# --- inputs that give nothing, or that flake8 itself rejects -------------------------------------------


def test_file_without_static_arg_text_yields_nothing(tmp_path: Path) -> None:
    write(tmp_path, "plain.py", NO_STATIC)
    completed = flake8_run("plain.py", cwd=tmp_path)
    no_crash(completed)
    assert completed.returncode == 0
    assert completed.stdout == ""


def test_syntax_error_does_not_crash_flake8(tmp_path: Path) -> None:
    write(tmp_path, "broken.py", "import jax\n\n\n@jax.jit(static_argnums=0\ndef f(x):\n    return x\n")
    write(tmp_path, "py2.py", 'import jax\n# static_argnums\nprint "x"\n')
    write(tmp_path, "a.py", BUGGY)
    completed = flake8_run("a.py", "broken.py", "py2.py", cwd=tmp_path, select="JAX,E999")
    no_crash(completed)
    assert completed.returncode == 1
    found = located(completed.stdout, FLAKE8_LINE)
    assert {(path, code) for path, _, _, code in found} == {
        ("a.py", "JAX101"),
        ("a.py", "JAX102"),
        ("broken.py", "E999"),
        ("py2.py", "E999"),
    }
    assert buggy_at("a.py") <= found


@pytest.mark.parametrize(
    "config, problem",
    [
        ('[tool.jaxcheck]\nselct = ["JAX101"]\n', "unknown key 'selct'"),
        ('[tool.jaxcheck]\nselect = ["JAX999"]\n', "unknown code 'JAX999'"),
        ("[tool.jaxcheck\n", "not valid TOML"),
    ],
    ids=["unknown-key", "unknown-code", "bad-toml"],
)
def test_bad_config_is_a_jax000_line_not_a_crash(tmp_path: Path, config: str, problem: str) -> None:
    pyproject = write(tmp_path, "pyproject.toml", config)
    write(tmp_path, "a.py", BUGGY)
    write(tmp_path, "plain.py", "x = [1, 2, 3]\n")  # pre-filtered: no static use, no class, no import
    completed = flake8_run(".", cwd=tmp_path)
    no_crash(completed)
    assert completed.returncode == 1
    lines = completed.stdout.splitlines()
    assert len(lines) == 1, completed.stdout
    assert lines[0].startswith("./a.py:1:1: JAX000 jaxcheck configuration error: ")
    assert str(pyproject) in lines[0]
    assert problem in lines[0]


# --- the pre-filter keeps the analysis out of the flake8 process; LibCST never comes in -----------


PREFILTER_PROBE = """\
import sys
from jaxcheck.flake8_plugin import JaxcheckPlugin
lines = {lines!r}
results = list(JaxcheckPlugin(None, "x.py", lines).run())
print(len(results), "jaxcheck.engine" in sys.modules, "libcst" in sys.modules)
"""


@pytest.mark.parametrize(
    "lines, expected",
    [
        pytest.param(["x = 1\n"], ["0", "False", "False"], id="a-file-with-nothing-to-find-loads-no-analysis"),
        # The control: the probe can fail, as a file that passes the pre-filter is analysed (without LibCST).
        pytest.param(BUGGY.splitlines(keepends=True), ["2", "True", "False"], id="control-a-static-file-is-analysed"),
    ],
)
def test_prefilter(tmp_path: Path, lines: list[str], expected: list[str]) -> None:
    completed = subprocess.run(
        [sys.executable, "-c", PREFILTER_PROBE.format(lines=lines)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split() == expected


@pytest.mark.parametrize("warm", [False, True])
def test_flake8_judges_a_project_once_however_many_files_it_asks_about(tmp_path, warm):
    """flake8 asks file by file; the project is judged on the first and the
    rest answered from that judgement, also when a warm cache (stamps) left
    the other files unread."""
    from unittest import mock

    import jaxcheck.engine as engine
    import jaxcheck.flake8_plugin as plugin
    from jaxcheck.config import find_config

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    files = [tmp_path / f"m{n}.py" for n in range(5)]
    for file in files:
        file.write_text(BUGGY)
    os.utime(tmp_path, None)
    for file in files:  # older than the racy window: stamps are trusted
        os.utime(file, (1_600_000_000, 1_600_000_000))

    def run() -> list:
        plugin._JUDGED.clear()
        found = []
        for file in files:
            found += plugin._findings(str(file), file.read_text(), find_config(str(file)), alone=False)
        return found

    if warm:
        run()
    with mock.patch.object(engine, "judge", side_effect=engine.judge) as counted:
        found = run()
    assert counted.call_count == 1
    assert len({finding.path for finding in found}) == len(files)


def test_flake8_run_again_in_one_process_sees_a_changed_module_it_was_not_asked_about(tmp_path):
    """The files the judgement read are looked at once a run (when a file is
    asked of again), not for every file: an edit of one of them is seen."""
    from unittest import mock

    import jaxcheck.engine as engine
    import jaxcheck.flake8_plugin as plugin
    from jaxcheck.config import find_config

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    lib = tmp_path / "lib.py"
    lib.write_text("import dataclasses\n\n\n@dataclasses.dataclass(frozen=True)\nclass Dial:\n    turns: int = 1\n")
    files = [tmp_path / f"app{n}.py" for n in range(3)]
    for file in files:
        file.write_text("import jax\n\nfrom lib import Dial\n\n\ndef turn(x):\n    return jax.jit(abs, static_argnums=1)(x, Dial())\n")
    plugin._JUDGED.clear()

    def run() -> None:
        for file in files:
            plugin._findings(str(file), file.read_text(), find_config(str(file)), alone=False)

    with mock.patch.object(engine, "judge", side_effect=engine.judge) as counted, mock.patch.object(
        plugin, "_stamps", side_effect=plugin._stamps
    ) as stamped:
        run()
        run()
        assert (counted.call_count, stamped.call_count) == (1, 2)  # judged once; looked at after it, and once a run
        lib.write_text(lib.read_text().replace("(frozen=True)", "()") + "# edited\n")
        run()
        assert counted.call_count == 2


def test_the_judgement_flake8_keeps_holds_no_facts(tmp_path):
    """flake8 keeps a judged project for the rest of its run; its facts are
    millions of objects on a real project, which every full collection of
    flake8's own garbage would walk again. The findings stay, the facts go."""
    import gc

    import jaxcheck.flake8_plugin as plugin
    from jaxcheck.config import find_config
    from jaxcheck.facts import ModuleFacts

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    files = [tmp_path / f"m{n}.py" for n in range(3)]
    for file in files:
        file.write_text(BUGGY)
    plugin._JUDGED.clear()
    found = []
    for file in files:
        found += plugin._findings(str(file), file.read_text(), find_config(str(file)), alone=False)
    gc.collect()
    assert len({finding.path for finding in found}) == len(files)
    assert plugin._JUDGED and not any(isinstance(item, ModuleFacts) for item in gc.get_objects())
