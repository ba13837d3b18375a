"""Jupyter notebooks (issue 17): their code cells are linted as one script, and
every finding says the cell and the line within it, as ruff does."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from helpers import BOTH, BUGGY, flake8_run, jaxcheck_run, write
from jaxcheck.config import Config
from jaxcheck.engine import check
from jaxcheck.loading.cache import project_cache_folder
from jaxcheck.loading.notebook import read_notebook, with_python

# `path:cell N:line:column: CODE message`, as ruff prints a finding in a notebook.
CELL_LINE = re.compile(r"^(?P<path>[^:\n]+):cell (?P<cell>\d+):(?P<line>\d+):(?P<column>\d+): (?P<code>JAX\d{3}) (?P<message>.+)$")

# BUGGY cut into cells: the class in cell 3 (after a markdown cell), the jitted function and the loop after it.
IMPORTS = "import jax\n"
CLASS = """\
class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels
"""
USE = """\
@jax.jit(static_argnums=0)
def f(x):
    return x.num_wheels


for _ in range(3):
    car = Vehicle(2)
    f(car)
car.num_wheels = 4
"""
assert IMPORTS + "\n\n" + CLASS + "\n\n" + USE == BUGGY


def code(source: str, outputs: list | None = None) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": outputs or [], "source": _lines(source)}


def markdown(source: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": _lines(source)}


def _lines(source: str) -> list[str]:
    """As nbformat stores a source: its lines, the last without its line break."""
    return source.rstrip("\n").splitlines(keepends=True)


def notebook(*cells: dict, indent: int | None = 1) -> str:
    """nbformat 4 JSON, written as Jupyter writes it (one-space indent, a final newline)."""
    document = {
        "cells": list(cells),
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, indent=indent, ensure_ascii=False) + "\n"


BUGGY_NOTEBOOK = notebook(code(IMPORTS), markdown("# Vehicles\n"), code(CLASS), code(USE))
CLASS_CELL, USE_CELL = 3, 4


def cell_findings(stdout: str) -> list[tuple[str, int, int, int, str, str]]:
    """(path, cell, line, column, code, message) of each output line; any other line fails."""
    found = []
    for line in stdout.splitlines():
        match = CELL_LINE.match(line)
        assert match, f"not a `path:cell N:line:col: CODE message` line: {line!r}"
        found.append((match["path"], int(match["cell"]), int(match["line"]), int(match["column"]), match["code"], match["message"]))
    return found


def in_process(root: Path, *paths: str, use_cache: bool = False):
    config = Config(root=str(root))
    return check([str(root / path) for path in paths], lambda _: config, use_cache=use_cache)


# --- a static use in a cell, at the right cell and line -----------------------------------------------


def test_a_static_use_bug_in_a_notebook_is_reported_at_its_cell_and_line(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", "")
    write(tmp_path, "analysis.ipynb", BUGGY_NOTEBOOK)
    completed = jaxcheck_run("check", ".", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    found = cell_findings(completed.stdout)
    assert {finding[:5] for finding in found} == {("./analysis.ipynb", CLASS_CELL, 1, 1, code) for code in BOTH}
    # The messages name the use and the change by cell and line too, not by the joined text's line.
    for *_, message in found:
        assert f" cell {USE_CELL}:8" in message, message  # a place in the same notebook: its cell and line
        assert not re.search(r"analysis\.ipynb:\d", message), message
    # Named on the command line, it is checked (no longer skipped with a note).
    named = jaxcheck_run("check", "analysis.ipynb", cwd=tmp_path)
    assert "skipped" not in named.stderr
    assert {finding[1:5] for finding in cell_findings(named.stdout)} == {(CLASS_CELL, 1, 1, code) for code in BOTH}


def test_json_has_the_cell_and_github_and_sarif_say_it_in_the_message(tmp_path: Path) -> None:
    write(tmp_path, "nb.ipynb", BUGGY_NOTEBOOK)
    records = json.loads(jaxcheck_run("check", "--format", "json", "nb.ipynb", cwd=tmp_path).stdout)
    assert {(r["path"], r["cell"], r["line"], r["column"], r["code"]) for r in records} == {
        ("nb.ipynb", CLASS_CELL, 1, 1, code) for code in BOTH
    }
    # A notebook's lines are JSON: the annotation is on the file, the cell in its text (as ruff does).
    github = jaxcheck_run("check", "--format", "github", "nb.ipynb", cwd=tmp_path).stdout.splitlines()
    assert len(github) == 2
    for line in github:
        assert line.startswith("::error file=nb.ipynb,line=1,col=1,"), line
        assert f"::cell {CLASS_CELL}:1:1: `Vehicle`" in line, line
    sarif = json.loads(jaxcheck_run("check", "--format", "sarif", "nb.ipynb", cwd=tmp_path).stdout)
    for result in sarif["runs"][0]["results"]:
        assert result["message"]["text"].startswith(f"cell {CLASS_CELL}:1:1: ")
        assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 1, "startColumn": 1}


def test_a_python_file_has_no_cell(tmp_path: Path) -> None:
    write(tmp_path, "m.py", BUGGY)
    records = json.loads(jaxcheck_run("check", "--format", "json", "m.py", cwd=tmp_path).stdout)
    assert records and all("cell" not in record for record in records)
    assert all(finding.cell == 0 for finding in in_process(tmp_path, "m.py").findings)


def test_folders_are_searched_for_notebooks_but_not_their_checkpoints(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.jaxcheck]\nexclude = ["drafts/"]\n')
    write(tmp_path, "docs/tour.ipynb", BUGGY_NOTEBOOK)
    write(tmp_path, "docs/.ipynb_checkpoints/tour-checkpoint.ipynb", BUGGY_NOTEBOOK)
    write(tmp_path, "drafts/old.ipynb", BUGGY_NOTEBOOK)
    found = cell_findings(jaxcheck_run("check", ".", cwd=tmp_path).stdout)
    assert {finding[0] for finding in found} == {"./docs/tour.ipynb"}


# --- IPython's syntax -----------------------------------------------------------------------------


MAGICS = notebook(
    code("%matplotlib inline\n%load_ext autoreload\n!pip install -q jax \\\n    optax\n" + IMPORTS),
    code("%%bash\necho 'not Python: ( ['\n"),
    code("%%writefile helper.py\ndef broken(:\n"),
    code("pip install einops\n"),  # automagic: a command, not Python
    code("%%timeit\nx = [1, 2]\n"),
    code(CLASS),
    code("Vehicle?\n??Vehicle\nfiles = !ls\nt = %timeit -o len(files)\nip = get_ipython()\nresult = await ip.run_cell_async('1')\n"),
    code("if True:\n    %time len([])\n    print('''a\n%not a magic, inside a string\n''')\n"),
    code('print(len([]))  # really?\ns = """why?\n%inside\n"""\n'),
    code(USE),
)


def test_magics_neither_hide_a_bug_nor_make_the_notebook_unparsable(tmp_path: Path) -> None:
    write(tmp_path, "magics.ipynb", MAGICS)
    result = in_process(tmp_path, "magics.ipynb")
    assert {(finding.cell, finding.line, finding.column, finding.code) for finding in result.findings} == {
        (6, 1, 1, code) for code in BOTH
    }
    assert str(tmp_path / "magics.ipynb") in result.analysed
    assert all(" cell 10:" in finding.message for finding in result.findings)


def test_magic_lines_keep_every_line_in_its_place() -> None:
    read = read_notebook(MAGICS)
    lines = read.python.splitlines()
    # Cells 2-4 run something else: left out; every other code cell keeps its line count.
    assert read.cells == (1, 5, 6, 7, 8, 9, 10)
    assert lines[:5] == ["pass", "pass", "pass", "", "import jax"]
    assert read.position(lines.index("x = [1, 2]") + 1) == (5, 2)
    seventh = lines[read.starts[3] - 1 : read.starts[4] - 1]
    assert seventh == ["pass", "pass", "files = None", "t = None", "ip = get_ipython()", "result = await ip.run_cell_async('1')"]
    eighth = lines[read.starts[4] - 1 : read.starts[5] - 1]
    assert eighth[1] == "    pass" and eighth[3] == "%not a magic, inside a string"
    # A `?` that ends a comment or a string is no help request.
    assert lines[read.starts[5] - 1 : read.starts[6] - 1] == ["print(len([]))  # really?", 's = """why?', "%inside", '"""']
    compile(read.python, "magics.ipynb", "exec", flags=__import__("ast").PyCF_ALLOW_TOP_LEVEL_AWAIT)


def test_a_syntax_error_in_a_cell_is_one_jax000_at_its_cell(tmp_path: Path) -> None:
    write(tmp_path, "nb.ipynb", notebook(markdown("intro"), code(IMPORTS), code("x = 1\ndef broken(:\n    pass\n")))
    (finding,) = in_process(tmp_path, "nb.ipynb").findings
    assert (finding.code, finding.cell, finding.line) == ("JAX000", 3, 2)
    assert finding.message.startswith("cannot parse: syntax error")


# --- a project's class used static in a notebook ----------------------------------------------------

SETTINGS = """\
class Settings:
    def __init__(self, steps):
        self.steps = steps
"""
INTEGRATE = """\
from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def integrate(x, settings):
    return x * settings.steps
"""
EXPLORE = notebook(
    markdown("# Exploring the integrator"),
    code("from pkg.integrate import integrate\nfrom pkg.settings import Settings\n"),
    code("for steps in range(3):\n    first = integrate(1.0, Settings(steps))\n"),
)


def test_a_project_class_used_static_in_a_notebook_is_reported_at_the_class(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", "")
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/settings.py", SETTINGS)
    write(tmp_path, "pkg/integrate.py", INTEGRATE)
    write(tmp_path, "notebooks/explore.ipynb", EXPLORE)
    # The notebook alone makes the class a finding: checking it shows the class's findings.
    for args in (["."], ["notebooks/explore.ipynb"]):
        completed = jaxcheck_run("check", *args, cwd=tmp_path)
        assert completed.returncode == 1, completed.stderr
        findings = [line for line in completed.stdout.splitlines() if line]
        assert {line.split(": ")[0] + " " + line.split(" ")[1] for line in findings} == {
            f"{'./' if args == ['.'] else ''}pkg/settings.py:1:1 JAX102",  # built again and again
            f"{'./' if args == ['.'] else ''}pkg/settings.py:1:1 JAX101",  # latent: its users may set `steps`
        }, completed.stdout
        for line in findings:
            assert "notebooks/explore.ipynb:cell 3:2" in line, line
    # Without the notebook, nothing uses the class static.
    os.remove(tmp_path / "notebooks" / "explore.ipynb")
    assert jaxcheck_run("check", ".", cwd=tmp_path).stdout == ""


# --- # noqa ---------------------------------------------------------------------------------------------


def test_noqa_works_per_line_in_a_cell(tmp_path: Path) -> None:
    silenced = CLASS.replace("class Vehicle:", "class Vehicle:  # noqa: JAX101")
    write(tmp_path, "nb.ipynb", notebook(code(IMPORTS), markdown("m"), code(silenced), code(USE)))
    found = cell_findings(jaxcheck_run("check", "nb.ipynb", cwd=tmp_path).stdout)
    assert [finding[1:5] for finding in found] == [(CLASS_CELL, 1, 1, "JAX102")]
    # flake8 reads a notebook named to it as JSON: the `# noqa` in the cell is honoured for it.
    completed = flake8_run("nb.ipynb", cwd=tmp_path)
    assert [line.split(" ")[1] for line in completed.stdout.splitlines()] == ["JAX102"], completed.stdout
    assert f"nb.ipynb:1:1: JAX102 cell {CLASS_CELL}:1:1: " in completed.stdout


# --- bad input ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content, why",
    [
        ("{not json", r"cannot read as a notebook: not JSON: Expecting property name"),
        ('{"nbformat": 3, "worksheets": []}', r"cannot read as a notebook: nbformat 3, jaxcheck reads nbformat 4"),
        ("[1, 2]", r"cannot read as a notebook: no list of cells"),
        ('{"cells": [{"cell_type": "code", "source": 3}], "nbformat": 4}', r"the source of cell 1 is neither text"),
        (b"\xff\xfe{}", r"cannot decode as utf-8"),
    ],
    ids=["not-json", "nbformat-3", "not-an-object", "bad-source", "not-utf-8"],
)
def test_an_invalid_notebook_is_one_jax000_with_the_reason(tmp_path: Path, content, why: str) -> None:
    write(tmp_path, "pyproject.toml", "")
    write(tmp_path, "bad.ipynb", content)
    write(tmp_path, "good.ipynb", BUGGY_NOTEBOOK)
    completed = jaxcheck_run("check", "--format", "json", ".", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    records = json.loads(completed.stdout)
    bad = [record for record in records if record["path"] == "./bad.ipynb"]
    assert len(bad) == 1 and bad[0]["code"] == "JAX000" and (bad[0]["line"], bad[0]["column"]) == (1, 1)
    assert "cell" not in bad[0] and re.search(why, bad[0]["message"]), bad[0]
    assert {record["code"] for record in records if record["path"] == "./good.ipynb"} == BOTH


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_named_like_a_notebook_is_one_jax000(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.ipynb")
    (finding,) = in_process(tmp_path, "pipe.ipynb").findings
    assert finding.code == "JAX000" and "a FIFO, not a regular file" in finding.message


def test_a_notebook_larger_than_a_module_may_be_is_read(tmp_path: Path) -> None:
    # Plots kept as outputs make notebooks large: past the 16 MiB a module may have, it is still read.
    plot = [{"data": {"image/png": "A" * (17 * 2**20)}, "metadata": {}, "output_type": "display_data"}]
    write(tmp_path, "plots.ipynb", notebook(code(IMPORTS), markdown("m"), code(CLASS, plot), code(USE)))
    assert {(finding.cell, finding.code) for finding in in_process(tmp_path, "plots.ipynb").findings} == {
        (CLASS_CELL, code) for code in BOTH
    }


def test_a_notebook_of_another_language_holds_no_python(tmp_path: Path) -> None:
    text = notebook(code("library(ggplot2)\nx <- c(1, 2)\n")).replace('"language": "python"', '"language": "R"')
    write(tmp_path, "r.ipynb", text)
    assert read_notebook(text).python == ""
    assert in_process(tmp_path, "r.ipynb").findings == []


# --- the cache ------------------------------------------------------------------------------------------


def test_a_warm_run_gives_the_same_findings_and_cells_follow_the_notebook(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", "")
    path = write(tmp_path, "nb.ipynb", BUGGY_NOTEBOOK)
    cold = jaxcheck_run("check", ".", cwd=tmp_path)
    assert os.path.isfile(os.path.join(project_cache_folder(str(tmp_path)), "results"))
    warm = jaxcheck_run("check", ".", cwd=tmp_path)
    assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    assert {finding[1] for finding in cell_findings(cold.stdout)} == {CLASS_CELL}
    # A markdown cell added before the class leaves the Python (and the cached results)
    # as they were; the findings move to the class's new cell all the same.
    path.write_text(notebook(markdown("new"), code(IMPORTS), markdown("# Vehicles\n"), code(CLASS), code(USE)))
    moved = jaxcheck_run("check", ".", cwd=tmp_path)
    assert {finding[1:3] for finding in cell_findings(moved.stdout)} == {(CLASS_CELL + 1, 1)}


# --- writing fixes back -----------------------------------------------------------------------------------

OUTPUTS = [{"name": "stdout", "output_type": "stream", "text": ["héllo\n"]}]
ROUND_TRIP = [
    notebook(code(IMPORTS), markdown("# Vehicles é\n"), code(CLASS, OUTPUTS), code("%time len([])\n" + USE)),
    notebook(code(IMPORTS), code(CLASS), indent=2),
    notebook(code(IMPORTS), code(CLASS), indent=None),
    json.dumps({"cells": [{"cell_type": "code", "source": CLASS, "metadata": {}}], "nbformat": 4}, ensure_ascii=True),
    "\ufeff" + notebook(code(CLASS)).rstrip("\n"),
]


@pytest.mark.parametrize("raw", ROUND_TRIP, ids=["jupyter", "indent-2", "one-line", "string-source", "bom-no-final-newline"])
def test_unchanged_python_gives_the_notebook_back_byte_for_byte(raw: str) -> None:
    assert with_python(raw, read_notebook(raw.lstrip("\ufeff")).python) == raw


@pytest.mark.parametrize("raw", ROUND_TRIP, ids=["jupyter", "indent-2", "one-line", "string-source", "bom-no-final-newline"])
def test_a_fix_changes_only_the_cell_it_edits(raw: str) -> None:
    python = read_notebook(raw.lstrip("\ufeff")).python
    fixed = python.replace("class Vehicle:\n", "import dataclasses\n\n@dataclasses.dataclass(frozen=True)\nclass Vehicle:\n")
    written = with_python(raw, fixed)
    assert written.startswith("\ufeff") == raw.startswith("\ufeff") and written.endswith("\n") == raw.endswith("\n")
    before, after = json.loads(raw.lstrip("\ufeff")), json.loads(written.lstrip("\ufeff"))
    assert read_notebook(written.lstrip("\ufeff")).python == fixed
    changed = [
        number
        for number, (old, new) in enumerate(zip(before["cells"], after["cells"]), start=1)
        if old != new
    ]
    class_cell = next(number for number, cell in enumerate(before["cells"], start=1) if "class Vehicle" in "".join(cell["source"]))
    assert changed == [class_cell]
    old_cell, new_cell = before["cells"][class_cell - 1], after["cells"][class_cell - 1]
    assert {key: value for key, value in old_cell.items() if key != "source"} == {
        key: value for key, value in new_cell.items() if key != "source"
    }
    assert type(new_cell["source"]) is type(old_cell["source"])
    # Everything outside the edited source is byte for byte what it was.
    start = raw.index("class Vehicle") - 200
    assert written[: max(start, 0)] == raw[: max(start, 0)]
    tail = raw[raw.index("self.num_wheels = num_wheels") + 40 :]
    assert written.endswith(tail)


def test_a_fix_keeps_magics_and_line_breaks_of_the_lines_it_leaves() -> None:
    raw = notebook(code("%time x = 1\r\nclass Vehicle:\r\n    pass\r\n!ls"), markdown("m"), code("y = 2\n"))
    python = read_notebook(raw).python
    assert python == "pass\nclass Vehicle:\n    pass\npass\ny = 2\n"
    written = json.loads(with_python(raw, python.replace("    pass\n", "    wheels = 2\n")))
    # The line written anew ends as the cell's other lines do (issue 44, item 7).
    assert written["cells"][0]["source"] == ["%time x = 1\r\n", "class Vehicle:\r\n", "    wheels = 2\r\n", "!ls"]
    assert written["cells"][1:] == json.loads(raw)["cells"][1:]
    # A line inserted between two cells goes with the cell after it; the cell before is untouched.
    grown = json.loads(with_python(raw, python.replace("pass\ny = 2\n", "pass\nz = 3\ny = 2\n")))
    assert grown["cells"][0] == json.loads(raw)["cells"][0]
    assert grown["cells"][2]["source"] == ["z = 3\n", "y = 2"]


# --- --fix writes the fixed Python back into its cells ---------------------------------------------------

STATIC_LIST = """\
from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def f(x, dims):
    return x * sum(dims)
"""


def test_fix_writes_into_the_cell_and_keeps_the_notebook_valid(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", "")
    outputs = [{"output_type": "stream", "name": "stdout", "text": ["6.0\n"]}]
    original = notebook(markdown("# Sums\n"), code(STATIC_LIST), code("%matplotlib inline\ny = f(1.0, [1, 2])  # the dims\n", outputs))
    write(tmp_path, "sums.ipynb", original)
    completed = jaxcheck_run("check", "--diff", "sums.ipynb", cwd=tmp_path)
    assert completed.returncode == 1, completed.stdout + completed.stderr
    assert "+y = f(1.0, (1, 2))  # the dims" in completed.stdout.splitlines()
    completed = jaxcheck_run("check", "--fix", "sums.ipynb", cwd=tmp_path)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "(1 fixed, 0 remaining)" in completed.stderr
    fixed = (tmp_path / "sums.ipynb").read_text(encoding="utf-8")
    document, before = json.loads(fixed), json.loads(original)
    assert document["cells"][2]["source"] == ["%matplotlib inline\n", "y = f(1.0, (1, 2))  # the dims"]  # the magic kept
    assert document["cells"][2]["outputs"] == outputs
    assert [cell for number, cell in enumerate(document["cells"]) if number != 2] == [
        cell for number, cell in enumerate(before["cells"]) if number != 2
    ]
    assert jaxcheck_run("check", "sums.ipynb", cwd=tmp_path).returncode == 0
