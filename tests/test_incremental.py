"""Runs that reuse the cache give the findings of a run without it, whatever
was edited: the stamps (a file's text known by `stat`, not read), the facts
kept by digest and the findings kept by fingerprint are shortcuts, never a
change of findings."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

import jaxcheck.loading.loader as loader
from jaxcheck.config import Config
from jaxcheck.engine import check
from jaxcheck.loading.cache import Cache, digest_of

equinox = pytest.importorskip("equinox")

HOUR_AGO = time.time_ns() - 3600 * 10**9
CONFIG = Config(root=".", profile="strict")

BUG = """

import dataclasses as _dc
import functools as _ft
import jax as _jax


@_dc.dataclass
class _Knob:
    scale: float = 1.0


@_ft.partial(_jax.jit, static_argnums=(1,))
def _scaled(x, knob):
    return x * knob.scale


def _use_knob(x):
    return _scaled(x, _Knob())
"""
SHARED = """

import dataclasses as _dc


@_dc.dataclass
class Dial:
    turns: int = 1
"""
STATIC_USE = """

import jax as _jax
from equinox._tree import Dial as _Dial


def _turned(x, dial):
    return x * dial.turns


def _turn(x):
    return _jax.jit(_turned, static_argnums=1)(x, _Dial())
"""


def findings(use_cache: bool) -> list[tuple]:
    result = check(["."], lambda _: CONFIG, use_cache=use_cache)
    return sorted((f.path, f.line, f.column, f.code, f.message) for f in result.findings)


def edit(path: Path, text: str) -> None:
    """Write the file and give it back an old modification time: only its size,
    inode or change time can tell that it changed."""
    path.write_text(text)
    os.utime(path, ns=(HOUR_AGO, HOUR_AGO))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the installed equinox as a project, every file an hour old."""
    shutil.copytree(os.path.dirname(equinox.__file__), tmp_path / "equinox", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'copy'\n")
    for folder, _, names in os.walk(tmp_path):
        for name in names:
            os.utime(os.path.join(folder, name), ns=(HOUR_AGO, HOUR_AGO))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.slow
def test_findings_after_each_edit_are_those_of_a_run_without_cache(project: Path, monkeypatch) -> None:
    reads = []
    read_source = loader.read_source
    monkeypatch.setattr(loader, "read_source", lambda path: reads.append(path) or read_source(path))
    assert findings(use_cache=True) == findings(use_cache=False)
    reads.clear()
    assert findings(use_cache=True) == findings(use_cache=False)  # warm: the stamps spoke for every file
    assert reads.count(os.path.abspath("equinox/_misc.py")) == 1  # read by the run without cache only
    misc, tree = project / "equinox/_misc.py", project / "equinox/_tree.py"
    edits = [
        (misc, lambda text: text + BUG),  # a bug added
        (misc, lambda text: text.replace("scale: float = 1.0", "scale: float = 2.0")),  # the same size
        (tree, lambda text: text + SHARED),  # a class other modules may use
        (misc, lambda text: text + STATIC_USE),  # a static use of it in another file
        (tree, lambda text: text.replace("@_dc.dataclass\nclass Dial", "@_dc.dataclass(frozen=True)\nclass Dial")),
        (tree, lambda text: text.replace("class Dial", "class Wheel")),  # renamed, its user left as it was
    ]
    seen = set()
    for path, change in edits:
        edit(path, change(path.read_text()))
        incremental = findings(use_cache=True)
        assert incremental == findings(use_cache=False)
        seen.add(tuple(incremental))
    assert len(seen) >= 2  # the edits changed the findings: the comparison can fail
    misc.unlink()
    assert findings(use_cache=True) == findings(use_cache=False)
    linear = project / "equinox/nn/_linear.py"
    edit(linear, linear.read_text().replace("class Linear(", "class Dense("))  # other modules import it
    assert findings(use_cache=True) == findings(use_cache=False)


def test_a_file_changed_in_the_tick_of_the_run_is_read_again(tmp_path: Path) -> None:
    # git's racy rule: a stamp this close to the run may hide an edit of the same size in the same tick.
    path = tmp_path / "recent.py"
    path.write_text("x = 1\n")
    folder = str(tmp_path / "cache")
    cache = Cache(folder)
    cache.observe(str(path), os.stat(path), digest_of("x = 1\n"))
    cache.save()
    assert Cache(folder).known_digest(str(path)) is None
    os.utime(path, ns=(HOUR_AGO, HOUR_AGO))
    cache = Cache(folder)
    cache.observe(str(path), os.stat(path), digest_of("x = 1\n"))
    cache.save()
    assert Cache(folder).known_digest(str(path)) == digest_of("x = 1\n")
    path.write_text("x = 2\n")  # the same size, the same modification time: the change time tells
    os.utime(path, ns=(HOUR_AGO, HOUR_AGO))
    assert Cache(folder).known_digest(str(path)) is None


SETTINGS = """class Settings:
    def __init__(self, steps):
        self.steps = steps
"""
FROZEN = """import dataclasses


@dataclasses.dataclass(frozen=True)
class Settings:
    steps: int
"""
INTEGRATE = """from functools import partial

import jax

from {module} import Settings


@partial(jax.jit, static_argnums=1)
def integrate(x, settings: Settings):
    return x * settings.steps
"""


def _project(root: Path, files: dict) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text)
        os.utime(path, ns=(HOUR_AGO, HOUR_AGO))


@pytest.mark.parametrize(
    "name, refused, accepted",
    [
        ("pkg/bad.py", b"x = '\xff'\n", ""),  # undecodable, then empty: not the same text
        ("pkg/bad.py", b"x = '\xff'\n", b"y = '\xfe\xfe'\n"),  # refused again, for another reason
        ("pkg/nb.ipynb", "{not json", '{"cells": [{"cell_type": "code", "source": [], "metadata": {}, "outputs": []}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'),
    ],
)
def test_a_file_that_could_not_be_read_is_judged_again_when_it_changes(tmp_path, monkeypatch, name, refused, accepted):
    """A file refused (undecodable, a notebook that is not JSON) is known by
    why it was refused, not as an empty text: its JAX000 goes, or changes,
    when it does, also after an edit of a file that takes no part."""
    _project(tmp_path, {"pkg/__init__.py": "", "pkg/settings.py": SETTINGS, "pkg/integrate.py": INTEGRATE.format(module="pkg.settings"), name: refused})
    monkeypatch.chdir(tmp_path)
    before = findings(use_cache=True)
    assert any(finding[3] == "JAX000" for finding in before) and before == findings(use_cache=False)
    _project(tmp_path, {name: accepted})
    assert findings(use_cache=True) == findings(use_cache=False)
    assert (findings(use_cache=False) != before) == (not isinstance(accepted, bytes))
    _project(tmp_path, {"pkg/notes.py": "def double(x):\n    return 2 * x\n"})
    assert findings(use_cache=True) == findings(use_cache=False)


def test_a_module_in_a_folder_the_walk_skips_is_not_the_project_s(tmp_path, monkeypatch):
    # `venv/` is never walked: a name resolves to the project's files only, whatever is made there.
    _project(tmp_path, {"pkg/__init__.py": "", "pkg/integrate.py": INTEGRATE.format(module="venv.settings"), "pkg/notes.py": ""})
    monkeypatch.chdir(tmp_path)
    assert findings(use_cache=True) == findings(use_cache=False) == []
    _project(tmp_path, {"venv/settings.py": SETTINGS})
    assert findings(use_cache=True) == findings(use_cache=False) == []
    _project(tmp_path, {"lib/venv/settings.py": SETTINGS, "lib/venv/__init__.py": ""})  # walked: found where a name looks
    assert findings(use_cache=True) == findings(use_cache=False) == []


def test_a_folder_linked_in_where_a_name_was_missing_changes_the_findings(tmp_path, monkeypatch):
    """The project's folders count in the fingerprint: a folder made or linked
    where a name was looked up in vain is seen by the next run."""
    project = tmp_path / "project"
    project.mkdir()
    files = {"pkg/__init__.py": "", "pkg/notes.py": "", "pkg/integrate.py": INTEGRATE.format(module="pkg.sub.settings")}
    _project(project, files)
    monkeypatch.chdir(project)
    assert findings(use_cache=True) == findings(use_cache=False) == []
    _project(project, {"shared/settings.py": SETTINGS})
    (project / "pkg" / "sub").symlink_to(project / "shared", target_is_directory=True)
    assert findings(use_cache=True) == findings(use_cache=False) == []  # a folder link is not walked
    (project / "pkg" / "sub").unlink()
    _project(project, {"pkg/sub/settings.py": SETTINGS})
    assert [finding[3] for finding in findings(use_cache=True)] == ["JAX101", "JAX102"]
    assert findings(use_cache=True) == findings(use_cache=False)


def test_an_import_root_taken_by_a_new_folder_changes_the_findings(tmp_path, monkeypatch):
    # `services/trainer/pkg` is imported as `pkg`, until a `pkg` folder at the root takes the name.
    root = "services/trainer/pkg"
    files = {f"{root}/__init__.py": "", f"{root}/settings.py": SETTINGS, f"{root}/integrate.py": INTEGRATE.format(module="pkg.settings")}
    _project(tmp_path, {**files, f"{root}/notes.py": ""})
    monkeypatch.chdir(tmp_path)
    assert [finding[3] for finding in findings(use_cache=True)] == ["JAX101", "JAX102"]
    (tmp_path / "pkg").mkdir()
    assert findings(use_cache=True) == findings(use_cache=False) == []
