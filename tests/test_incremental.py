"""Runs that reuse the cache give the findings of a run without it, whatever
was edited: the stamps (a file's text known by `stat`, not read) and the
verdicts kept by digest are shortcuts, never a change of findings."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

import jaxcheck.loading.loader as loader
from jaxcheck.config import Config
from jaxcheck.engine import check
from jaxcheck.loading.cache import FactsCache
from jaxcheck.loading.stamps import Stamps, digest_of

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


def test_findings_after_each_edit_are_those_of_a_run_without_cache(project: Path, monkeypatch) -> None:
    reads = []
    read_source = loader.read_source
    monkeypatch.setattr(loader, "read_source", lambda path: reads.append(path) or read_source(path))
    assert findings(use_cache=True) == findings(use_cache=False)
    reads.clear()
    assert findings(use_cache=True) == findings(use_cache=False)  # warm: the stamps spoke for every file
    assert reads.count(os.path.abspath("equinox/_misc.py")) == 1  # read by the run without cache only
    misc, tree = project / "equinox/_misc.py", project / "equinox/_tree.py"
    # Each edit, and whether it leaves what the taking-part files offer as it was: then
    # only the edited file and those with findings are read, not the project.
    edits = [
        (misc, lambda text: text + BUG, False),  # a bug added
        (misc, lambda text: text.replace("scale: float = 1.0", "scale: float = 2.0"), True),  # the same size
        (tree, lambda text: text + SHARED, False),  # a class other modules may use
        (misc, lambda text: text + STATIC_USE, False),  # a static use of it in another file
        (tree, lambda text: text.replace("@_dc.dataclass\nclass Dial", "@_dc.dataclass(frozen=True)\nclass Dial"), True),
        (tree, lambda text: text.replace("class Dial", "class Wheel"), False),  # renamed, its user left as it was
    ]
    seen = set()
    for path, change, proportional in edits:
        edit(path, change(path.read_text()))
        reads.clear()
        incremental = findings(use_cache=True)
        assert not proportional or len(set(reads)) <= 3, sorted(set(reads))
        assert incremental == findings(use_cache=False)
        seen.add(tuple(incremental))
    assert len(seen) >= 2  # the edits changed the findings: the comparison can fail
    misc.unlink()
    assert findings(use_cache=True) == findings(use_cache=False)
    linear = project / "equinox/nn/_linear.py"
    edit(linear, linear.read_text().replace("class Linear(", "class Dense("))  # other modules import it
    assert findings(use_cache=True) == findings(use_cache=False)


PLAIN = """def double(values):
    return [2 * value for value in values]
"""
USER = """from equinox._module import Module


def named(module: Module) -> str:
    return type(module).__name__
"""


def test_an_edit_that_changes_no_file_the_findings_rest_on_is_not_judged_again(project: Path, monkeypatch) -> None:
    """The findings stand while the files the last judgement read are as they
    were and no other file takes part or uses what they offer; any edit that
    makes a file take part, use an offered name or fail to read is judged."""
    builds = []
    build = loader.Workspace.build
    monkeypatch.setattr(loader.Workspace, "build", lambda self, files: builds.append(1) or build(self, files))
    notes = project / "equinox/_notes.py"
    edit(notes, PLAIN)  # a new file: the project's files are not those judged
    edits = [
        (PLAIN + "\n\ndef triple(values):\n    return [3 * value for value in values]\n", False),
        (PLAIN.replace("2 *", "4 *"), False),  # the same size
        ("def broken(:\n", False),  # Python refuses it: the syntax check says so, not the judgement
        (PLAIN + BUG, True),  # it takes part: a static use of a mutable class
        (PLAIN, True),  # read by the last judgement
        (PLAIN + "# a comment\n", False),
        (USER, True),  # it uses a class a taking-part module offers
        (PLAIN, True),
        ("x = '\udcff'\n", True),  # undecodable: a JAX000 the judgement holds
        (PLAIN, True),
    ]
    assert findings(use_cache=True) == findings(use_cache=False)
    seen = set()
    for text, judged in edits:
        with open(notes, "w", encoding="utf-8", errors="surrogateescape") as handle:
            handle.write(text)
        os.utime(notes, ns=(HOUR_AGO, HOUR_AGO))
        builds.clear()
        incremental = findings(use_cache=True)
        assert len(builds) == judged, text
        assert incremental == findings(use_cache=False), text
        seen.add(tuple(incremental))
    assert len(seen) >= 3  # the edits changed the findings: the comparison can fail


def test_a_file_changed_in_the_tick_of_the_run_is_read_again(tmp_path: Path) -> None:
    # git's racy rule: a stamp this close to the run may hide an edit of the same size in the same tick.
    path = tmp_path / "recent.py"
    path.write_text("x = 1\n")
    cache = FactsCache(str(tmp_path / ".jaxcheck_cache"))
    stamps = Stamps(cache, ())
    stamps.observe(str(path), os.stat(path), digest_of("x = 1\n"))
    stamps.save()
    assert Stamps(cache, ()).known(str(path)) is None
    os.utime(path, ns=(HOUR_AGO, HOUR_AGO))
    stamps = Stamps(cache, ())
    stamps.observe(str(path), os.stat(path), digest_of("x = 1\n"))
    stamps.save()
    assert Stamps(cache, ()).known(str(path)) == digest_of("x = 1\n")
    path.write_text("x = 2\n")  # the same size, the same modification time: the change time tells
    os.utime(path, ns=(HOUR_AGO, HOUR_AGO))
    assert Stamps(cache, ()).known(str(path)) is None


def test_stamps_from_another_user_or_a_repository_are_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")
    os.utime(path, ns=(HOUR_AGO, HOUR_AGO))
    folder = tmp_path / ".jaxcheck_cache"
    cache = FactsCache(str(folder))
    stamps = Stamps(cache, ())
    stamps.observe(str(path), os.stat(path), digest_of("planted"))
    stamps.save()
    entry = (folder / "stamps.json").read_bytes()
    (folder / "stamps.json").write_bytes(b"0" * 64 + entry[64:])  # the signature of another key
    assert Stamps(FactsCache(str(folder)), ()).known(str(path)) is None


def test_stamps_are_saved_once_enough_of_them_changed_and_the_findings_never_wait_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An edit in a big project leaves the stamps as they are: the next run reads that file again.
    (tmp_path / "m000.py").write_text(BUG)
    for n in range(1, 128):
        (tmp_path / f"m{n:03}.py").write_text(f"x = {n}\n")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'many'\n")
    for path in tmp_path.iterdir():
        os.utime(path, ns=(HOUR_AGO, HOUR_AGO))
    monkeypatch.chdir(tmp_path)
    reads = []
    read_source = loader.read_source
    monkeypatch.setattr(loader, "read_source", lambda path: reads.append(os.path.basename(path)) or read_source(path))
    before = findings(use_cache=True)
    saved = (tmp_path / ".jaxcheck_cache" / "stamps.json").read_bytes()
    edit(tmp_path / "m000.py", BUG.replace("static_argnums=(1,)", "static_argnums=()"))  # offers the same names
    assert findings(use_cache=True) == findings(use_cache=False) == [] != before
    assert (tmp_path / ".jaxcheck_cache" / "stamps.json").read_bytes() == saved  # a file of 128 changed
    reads.clear()
    assert findings(use_cache=True) == findings(use_cache=False) == []
    assert reads.count("m000.py") == 2  # by the run with the cache (its stamp was not saved) and the one without
    edited = ["m001.py", "m002.py", "m003.py"]  # with m000.py, 4 of 128: a 32nd
    for name in edited:
        edit(tmp_path / name, "y = 0\n")
    assert findings(use_cache=True) == findings(use_cache=False) == []
    assert (tmp_path / ".jaxcheck_cache" / "stamps.json").read_bytes() != saved
    reads.clear()
    assert findings(use_cache=True) == findings(use_cache=False) == []
    assert [reads.count(name) for name in ["m000.py", *edited]] == [1] * 4  # by the run without the cache only


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


def test_a_module_read_from_a_folder_the_walk_skips_is_judged_again_when_it_changes(tmp_path, monkeypatch):
    # `venv/` is never walked, so the fingerprint does not cover it; the judgement read it all the same.
    _project(tmp_path, {"pkg/__init__.py": "", "pkg/integrate.py": INTEGRATE.format(module="venv.settings"), "venv/settings.py": SETTINGS})
    monkeypatch.chdir(tmp_path)
    mutable = findings(use_cache=True)
    assert [finding[3] for finding in mutable] == ["JAX101", "JAX102"] and mutable == findings(use_cache=False)
    _project(tmp_path, {"venv/settings.py": FROZEN})
    assert findings(use_cache=True) == findings(use_cache=False) == []
    _project(tmp_path, {"venv/settings.py": SETTINGS})
    _project(tmp_path, {"pkg/notes.py": "def double(x):\n    return 2 * x\n"})  # and a file that takes no part
    assert findings(use_cache=True) == findings(use_cache=False) == mutable


def test_an_edit_of_a_file_that_takes_no_part_looks_up_the_names_the_judgement_looked_up_again(tmp_path, monkeypatch):
    """Where a name resolves can change outside the files walked: a module
    made in a skipped folder, a folder that shadows an import root. An edit
    that keeps the findings asks again where each name the judgement looked up is."""
    _project(tmp_path, {"pkg/__init__.py": "", "pkg/integrate.py": INTEGRATE.format(module="venv.settings"), "pkg/notes.py": ""})
    monkeypatch.chdir(tmp_path)
    assert findings(use_cache=True) == findings(use_cache=False) == []
    _project(tmp_path, {"venv/settings.py": SETTINGS})
    _project(tmp_path, {"pkg/notes.py": "def double(x):\n    return 2 * x\n"})
    assert [finding[3] for finding in findings(use_cache=True)] == ["JAX101", "JAX102"]
    assert findings(use_cache=True) == findings(use_cache=False)


def test_an_edit_of_a_file_that_takes_no_part_asks_the_disk_only_where_the_walk_cannot_answer(tmp_path, monkeypatch):
    """The walk lists every Python file and folder of the folders it walked:
    a name looked up there resolves again as it did while the listing is
    the same, so an edit asks again only of the names it cannot answer (a
    skipped folder). A folder linked in where a name was missing changes
    the listing, and the findings follow."""
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "elsewhere").mkdir()
    files = {"pkg/__init__.py": "", "pkg/notes.py": "", "pkg/integrate.py": INTEGRATE.format(module="pkg.sub.settings")}
    _project(project, {**files, "pkg/local.py": INTEGRATE.format(module="venv.settings"), "venv/pyvenv.cfg": ""})
    _project(tmp_path / "elsewhere", {"settings.py": SETTINGS})
    monkeypatch.chdir(project)
    assert findings(use_cache=True) == findings(use_cache=False) == []
    asked: list[str] = []
    module_paths = loader.Project.module_paths
    monkeypatch.setattr(loader.Project, "module_paths", lambda self, module, *rest: asked.append(module) or module_paths(self, module, *rest))
    _project(project, {"pkg/notes.py": "def double(x):\n    return 2 * x\n"})
    assert findings(use_cache=True) == []
    assert "venv.settings" in asked and not {"pkg", "pkg.sub", "pkg.integrate"} & set(asked)
    (project / "pkg" / "sub").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert [finding[3] for finding in findings(use_cache=True)] == ["JAX101", "JAX102"]  # no file of the walk changed
    assert findings(use_cache=True) == findings(use_cache=False)
    (project / "pkg" / "sub").unlink()
    (project / "pkg" / "__pycache__").mkdir()  # a folder no lookup asked about
    _project(project, {"pkg/notes.py": ""})
    assert findings(use_cache=True) == findings(use_cache=False) == []
    _project(project, {"venv/settings.py": SETTINGS})  # in a skipped folder: the walk cannot answer
    assert [finding[3] for finding in findings(use_cache=True)] == ["JAX101", "JAX102"]
    assert findings(use_cache=True) == findings(use_cache=False)


def test_the_run_after_the_first_finds_its_findings_by_the_fingerprint_alone(tmp_path, monkeypatch):
    # The first run makes the cache's folder: a folder the fingerprint counts, were it not the cache's.
    _project(tmp_path, {"pkg/__init__.py": "", "pkg/settings.py": SETTINGS, "pkg/integrate.py": INTEGRATE.format(module="pkg.settings")})
    monkeypatch.chdir(tmp_path)
    first = findings(use_cache=True)
    asked: list[str] = []
    load_loading = FactsCache.load_loading
    monkeypatch.setattr(FactsCache, "load_loading", lambda self: asked.append("loading") or load_loading(self))
    assert findings(use_cache=True) == first == findings(use_cache=False) and asked == []


def test_an_edit_of_a_file_that_takes_no_part_asks_again_which_folders_are_import_roots(tmp_path, monkeypatch):
    # `services/trainer/pkg` is imported as `pkg`, until a `pkg` folder at the root takes the name.
    root = "services/trainer/pkg"
    files = {f"{root}/__init__.py": "", f"{root}/settings.py": SETTINGS, f"{root}/integrate.py": INTEGRATE.format(module="pkg.settings")}
    _project(tmp_path, {**files, f"{root}/notes.py": ""})
    monkeypatch.chdir(tmp_path)
    assert [finding[3] for finding in findings(use_cache=True)] == ["JAX101", "JAX102"]
    (tmp_path / "pkg").mkdir()
    _project(tmp_path, {f"{root}/notes.py": "def double(x):\n    return 2 * x\n"})
    assert findings(use_cache=True) == findings(use_cache=False) == []
