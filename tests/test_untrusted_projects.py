"""Projects a pull request can shape, and what users met as they tried
jaxcheck (issue 44): links out of the project are never read or written, a
run with too few file descriptors uses fewer workers, the install lines work
from a clone, a notebook's cells are spelled one way in every format and a
baseline, and one run spells every path one way."""

from __future__ import annotations

import json
import re
import resource
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import jaxcheck
from helpers import BUGGY, flake8_run, write

ROOT = Path(jaxcheck.__file__).resolve().parent.parent


PYPROJECT = '[project]\nname = "demo"\nversion = "0"\n\n[tool.jaxcheck]\nprofile = "strict"\n'
SETTINGS = "class Settings:\n    def __init__(self, steps):\n        self.steps = steps\n"
# The static use lives in a file of another folder, linked into the project as pkg/integrate.py.
INTEGRATE = """\




@partial(jax.jit, static_argnums=1)
def integrate(x, settings: Settings):
    return x * settings.steps
"""


def linked_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write(root, "pyproject.toml", PYPROJECT)
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/settings.py", SETTINGS)
    outside = write(tmp_path, "elsewhere/integrate.py", INTEGRATE)
    (root / "pkg" / "integrate.py").symlink_to(outside)
    return root


def test_flake8_does_not_read_a_module_linked_from_outside_the_project(tmp_path: Path) -> None:
    root = linked_project(tmp_path)
    completed = flake8_run("pkg/settings.py", cwd=root)
    assert "Traceback" not in completed.stderr, completed.stderr
    # Were the linked file read, its static use would make settings.py's class a finding.
    assert completed.stdout == "" and completed.returncode == 0, completed.stdout


def test_the_language_server_does_not_read_a_module_linked_from_outside_the_project(tmp_path: Path) -> None:
    from jaxcheck.server.session import Session

    root = linked_project(tmp_path)
    settings = str(root / "pkg" / "settings.py")
    found = Session(jobs=1).findings({settings: SETTINGS})
    assert found[settings] == [], [(f.line, f.code, f.message) for f in found[settings]]


FIXABLE = "import jax\n\n\ndef h(x, n):\n    return len(n)\n\n\ng = jax.jit(h, static_argnums=1)\nprint(g(1, [1, 2]))\n"


@pytest.mark.parametrize("action", ["--fix", "--add-noqa"])
def test_a_folder_s_link_to_another_project_is_not_rewritten(tmp_path: Path, action: str) -> None:
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "pyproject.toml").write_text("")
    real = tmp_path / "other" / "real.py"
    real.write_text(FIXABLE)
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "pyproject.toml").write_text("")
    (tmp_path / "project" / "mod.py").symlink_to(real)
    completed = subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", "--no-cache", action, "."],
        cwd=tmp_path / "project", capture_output=True, text=True, timeout=120,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    assert real.read_text() == FIXABLE
    assert "./mod.py skipped: a link to a file outside the project" in completed.stderr, completed.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs forked workers and RLIMIT_NOFILE")
def test_jobs_with_too_few_file_descriptors_is_cut_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    for number in range(200):
        (tmp_path / f"m{number:03}.py").write_text(BUGGY)

    def twenty_descriptors() -> None:
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (20, hard))

    completed = subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", "--no-cache", "--jobs", "6", "--output-format", "json", "."],
        capture_output=True, text=True, cwd=tmp_path, timeout=300, preexec_fn=twenty_descriptors,
    )
    assert "Traceback" not in completed.stderr and "Too many open files" not in completed.stderr, completed.stderr
    assert completed.returncode == 1, completed.stderr
    assert len(json.loads(completed.stdout)) == 400
    assert "--jobs 6: too few file descriptors" in completed.stderr, completed.stderr


# What pip may be given: the clone (`.`, `".[server]"`) or the repository's URL, never a bare name.
FROM_A_CLONE = re.compile(r"\.(\[[a-z,]+\])?|git\+https://\S+")


def _pip_installs(text: str) -> list[list[str]]:
    commands = []
    for match in re.finditer(r"pip install ([^`\n&#]*)", text):
        words = [word for word in shlex.split(match.group(1)) if not word.startswith("-")]
        commands.append(words)
    return commands


def test_every_readme_install_line_installs_from_a_clone_or_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = _pip_installs(readme)
    assert commands, "the README shows no install line"
    for words in commands:
        assert words and all(FROM_A_CLONE.fullmatch(word) for word in words), words
    assert re.search(r"not on a package\s+index", readme), "the README does not say jaxcheck is not on a package index"


def test_the_server_says_to_install_its_extra_as_the_readme_does(monkeypatch, capsys) -> None:
    """The message of `jaxcheck server` without pygls, and `--help`, name an install that works."""
    import sys

    from jaxcheck.cli import main

    monkeypatch.setitem(sys.modules, "pygls", None)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    assert main(["server"]) == 2
    said = capsys.readouterr().err
    for words in _pip_installs(said):
        assert all(FROM_A_CLONE.fullmatch(word) for word in words), said


IMPORTS = "import jax\n"
CLASS = "class Vehicle:\n    def __init__(self, num_wheels):\n        self.num_wheels = num_wheels\n"
USE = (
    "@jax.jit(static_argnums=0)\ndef f(x):\n    return x.num_wheels\n\n\n"
    "for _ in range(3):\n    car = Vehicle(2)\n    f(car)\ncar.num_wheels = 4\n"
)


def _lines(source: str) -> list[str]:
    return source.rstrip("\n").splitlines(keepends=True)


def code(source: str) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": _lines(source)}


def markdown(source: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": _lines(source)}


def notebook(*cells: dict) -> str:
    return json.dumps({"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


def run_jaxcheck(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", "--no-cache", *args], cwd=root, capture_output=True, text=True, timeout=120
    )


def test_a_baselined_notebook_finding_stays_accepted_when_a_line_is_added_above_its_use(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", "")
    write(tmp_path, "nb.ipynb", notebook(code(IMPORTS), markdown("# Vehicles\n"), code(CLASS), code(USE)))
    assert run_jaxcheck(tmp_path, "--baseline", "base.json", ".").returncode == 0
    # The use and the change move one line down in their cell: the same findings.
    write(tmp_path, "nb.ipynb", notebook(code(IMPORTS), markdown("# Vehicles\n"), code(CLASS), code("# setup\n" + USE)))
    completed = run_jaxcheck(tmp_path, "--baseline", "base.json", ".")
    assert (completed.returncode, completed.stdout) == (0, ""), completed.stdout + completed.stderr
    assert "2 findings accepted by the baseline" in completed.stderr


def test_a_related_place_in_a_notebook_names_its_cell_in_every_format(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", "")
    write(tmp_path, "nb.ipynb", notebook(code(IMPORTS), markdown("# Vehicles\n"), code(CLASS), code(USE)))
    full = run_jaxcheck(tmp_path, "--select", "JAX101", "--output-format", "full", "nb.ipynb").stdout
    assert "::: nb.ipynb:cell 4:8:7:" in full, full  # as the finding's own header and its message spell it
    (record,) = json.loads(run_jaxcheck(tmp_path, "--select", "JAX101", "--output-format", "json", "nb.ipynb").stdout)
    assert [(place["cell"], place["line"], place["column"]) for place in record["related"]] == [(4, 8, 7), (4, 9, 1)]
    sarif = json.loads(run_jaxcheck(tmp_path, "--select", "JAX101", "--output-format", "sarif", "nb.ipynb").stdout)
    for place in sarif["runs"][0]["results"][0]["relatedLocations"]:
        assert place["message"]["text"].startswith("cell 4:"), place  # as the result's own message does


SETTINGS = "class Settings:\n    def __init__(self, steps):\n        self.steps = steps\n"
RUN = (
    "from functools import partial\n\nimport jax\n\nfrom pkg.cfg import Settings\n\n\n"
    "@partial(jax.jit, static_argnums=1)\ndef integrate(x, settings: Settings):\n    return x * settings.steps\n"
)


@pytest.mark.parametrize("given", [".", "./src", "src"])
def test_one_run_spells_every_path_one_way(tmp_path: Path, given: str) -> None:
    write(tmp_path, "pyproject.toml", '[project]\nname = "demo"\nversion = "0"\n\n[tool.jaxcheck]\nprofile = "strict"\n')
    write(tmp_path, "src/pkg/__init__.py", "")
    write(tmp_path, "src/pkg/cfg.py", SETTINGS)
    write(tmp_path, "src/pkg/run.py", RUN)
    completed = subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", "--no-cache", "--output-format", "json", given],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    records = json.loads(completed.stdout)
    assert records, completed.stderr
    prefix = "./" if given.startswith(".") else ""
    for record in records:
        named = [record["path"], *(place["path"] for place in record["related"])]
        named += re.findall(r"(\S*src/pkg/\w+\.py)", record["message"])
        assert all(path.lstrip("(").startswith(prefix + "src/") for path in named), named
