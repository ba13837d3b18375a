"""Walking a project, and what a run leaves of Python's collector.

One walk of a project lists both what the run checks and every file the
fingerprint counts; a file's real path is found once for its folder;
display paths and module names are cut below a folder: each the same as the
plain way (`os.walk`, `os.path.realpath`, `os.path.relpath`). `--jobs 2`
finds what `--jobs 1` finds, and a run leaves the host's collector as it was.
"""

from __future__ import annotations

import gc
import os
from unittest import mock

import pytest

import jaxcheck.engine as engine
import jaxcheck.loading.files as walking
from jaxcheck.config import find_config
from helpers import installed

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures")


@pytest.mark.parametrize("real", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["fixtures", "and-equinox"])
def test_jobs_2_finds_what_jobs_1_finds(real: bool):
    """Facts read by the pool's workers come back whole: the same findings
    on every fixture and (slow) on equinox."""
    paths = [FIXTURES, *([str(installed("equinox"))] if real else [])]
    one = engine.check(paths, find_config, jobs=1, use_cache=False)
    two = engine.check(paths, find_config, jobs=2, use_cache=False)
    fixtures = sum(name.endswith(".py") for _, _, names in os.walk(FIXTURES) for name in names)
    assert one.files == two.files >= fixtures + 40 * real  # equinox's modules too, whatever its release
    assert one.findings == two.findings and len({finding.code for finding in one.findings}) > 10


def test_a_run_gives_the_collector_back_as_it_found_it():
    threshold = gc.get_threshold()
    engine.check([os.path.join(FIXTURES, "JAX101")], find_config, jobs=1, alone=True)
    assert (gc.get_threshold(), gc.isenabled()) == (threshold, True)


def _tree(root, names):
    for name in names:
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("x = 1\n")


@pytest.mark.parametrize("packages_only", [False, True])
def test_one_walk_of_a_project_lists_what_a_walk_with_and_one_without_the_exclusions_did(tmp_path, packages_only):
    """`project_files` gives the loader both lists in one walk: the same
    files, in the same order, as `os.walk` pruned as jaxcheck prunes, with
    and without the exclusions; every folder walked with the folders in it;
    and the checked files by folder, the links among them known."""
    from jaxcheck.config import Config
    from jaxcheck.loading.files import _searched, project_files, python_files

    _tree(
        tmp_path,
        [
            "top.py", "pkg/__init__.py", "pkg/a.py", "pkg/a.pyi", "pkg/skip_me.py", "pkg/sub/b.py",
            "build/gen.py", "build/deep/gen2.py", "build/keep.py", "loose/c.py", "data/d.ipynb",
            ".venv/v.py", "node_modules/n.py", "x.egg-info/e.py", "pkg/__pycache__/p.py",
        ],
    )
    (tmp_path / "pkg" / "alias.py").symlink_to(tmp_path / "top.py")
    (tmp_path / "linked").symlink_to(tmp_path / "pkg", target_is_directory=True)
    config = Config(root=str(tmp_path), exclude=("build/", "skip_me.py", "!build/keep.py", "data/*.ipynb"))
    root = str(tmp_path)

    def walked(is_excluded):  # `os.walk`, pruned as jaxcheck prunes
        found, excluded = [], set()
        for folder, folders, files in os.walk(root):
            below = folder in excluded
            folders[:] = sorted(name for name in folders if _searched(root, folder, name, packages_only))
            excluded.update(os.path.join(folder, name) for name in folders if below or is_excluded(os.path.join(folder, name), True))
            for name in sorted(files):
                path = os.path.join(folder, name)
                if name.endswith((".py", ".pyi", ".ipynb")) and not below and not is_excluded(path, False):
                    found.append(path)
        return found

    listing = project_files(root, config.is_excluded, packages_only)
    assert listing.checked == walked(config.is_excluded) == list(python_files(root, config.is_excluded, packages_only=packages_only))
    assert listing.every == walked(lambda *_: False)
    assert {os.path.dirname(path) for path in listing.every} <= set(listing.walked)
    for folder, names in listing.walked.items():
        assert names == {entry.name for entry in os.scandir(folder) if entry.is_dir()}, folder
    in_groups = [(os.path.join(folder, name), is_link) for folder, found in listing.groups for name, is_link in found]
    assert in_groups == [(path, os.path.islink(path)) for path in listing.checked]
    assert len(listing.checked) < len(listing.every) and not listing.unreadable


def test_a_file_s_real_path_is_its_folder_s_unless_it_is_a_link(tmp_path, monkeypatch):
    """`real_path` resolves a folder once for its files: it must say what `os.path.realpath` says."""
    from jaxcheck.loading.files import real_path

    _tree(tmp_path, ["real/a.py", "real/sub/b.py"])
    (tmp_path / "linked").symlink_to(tmp_path / "real", target_is_directory=True)
    (tmp_path / "real" / "alias.py").symlink_to(tmp_path / "real" / "sub" / "b.py")
    (tmp_path / "real" / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    monkeypatch.chdir(tmp_path / "real")
    spellings = [
        "a.py", "./a.py", "alias.py", "dangling.py", "missing.py", "sub/b.py", "../linked/a.py",
        "../linked/alias.py", "../linked/sub/../a.py", str(tmp_path / "linked" / "sub" / "b.py"),
    ]
    folders: dict[str, str] = {}
    for path in spellings * 2:  # the second time from what the first kept
        assert real_path(path, folders) == os.path.realpath(path), path


@pytest.mark.parametrize("through_the_project_s_walk", [False, True])
@pytest.mark.parametrize("spelled", ["root", ".", "./root/", "absolute"])
def test_located_files_are_what_a_walk_abspath_and_realpath_say(tmp_path, monkeypatch, spelled, through_the_project_s_walk):
    """`located_files` lists a folder once and finds each folder's absolute
    and real paths once: the files `os.walk` finds, in its order, with
    what `os.path.abspath` and `os.path.realpath` say of each, under the
    absolute path of their folder; the same from the project's walk of the
    folder (`project_files`), spelled as the folder is given."""
    from jaxcheck.config import Config
    from jaxcheck.loading.files import SKIPPED_FOLDERS, _searched, located_files, project_files

    root = tmp_path / "root"
    _tree(root, ["a.py", "b.pyi", "n.ipynb", "z.txt", "pkg/__init__.py", "pkg/m.py", "pkg/sub/deep/d.py", "Zed/x.py",
                 "skip/s.py", ".venv/v.py", "venvlike/pyvenv.cfg", "venvlike/w.py", "pkg/gen/g.py", "pkg/gen/keep.py"])
    (root / "linked_folder").symlink_to(root / "pkg", target_is_directory=True)
    (root / "pkg" / "alias.py").symlink_to(root / "a.py")
    (root / "pkg" / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    (root / "out.py").symlink_to(tmp_path / "outside.py")
    (tmp_path / "outside.py").write_text("x = 1\n")
    config = Config(root=str(root), exclude=("skip/", "pkg/gen/", "!pkg/gen/keep.py"))
    monkeypatch.chdir(tmp_path if spelled != "." else root)
    path = {"root": "root", ".": ".", "./root/": "./root/", "absolute": str(root)}[spelled]

    def walked():  # what `os.walk` lists, pruned as the walk prunes
        for folder, folders, files in os.walk(path):
            folders[:] = sorted(
                name for name in folders
                if _searched(path, folder, name, False) and not config.is_excluded(os.path.join(folder, name), True)
            )
            for name in sorted(files):
                file = os.path.join(folder, name)
                if name.endswith((".py", ".pyi", ".ipynb")) and not config.is_excluded(file, False):
                    yield file

    expected = [(file, os.path.abspath(file), os.path.realpath(file)) for file in walked()]
    unreadable: list = []
    listing = project_files(os.path.abspath(path), config.is_excluded) if through_the_project_s_walk else None
    by_folder = list(located_files(path, config.is_excluded, unreadable, {}, listing))
    found = [file for _, files in by_folder for file in files]
    assert found == expected and not unreadable
    assert all(os.path.dirname(absolute) == folder for folder, files in by_folder for _, absolute, _ in files)
    assert {"alias.py", "dangling.py", "out.py", "x.py"} <= {os.path.basename(file) for file, _, _ in found}
    assert ".venv" in SKIPPED_FOLDERS and not any("venvlike" in file or "skip" in file for file, _, _ in found)


def test_a_run_walks_a_project_once_for_its_files_and_once_for_the_loader(tmp_path):
    """The run's files and the project's (the loader's, the fingerprint's)
    come from one walk when the folder given is the project."""
    _tree(tmp_path, ["pyproject.toml", "pkg/__init__.py", "pkg/a.py"])
    with mock.patch("jaxcheck.loading.files._listed", wraps=walking._listed) as walk:
        result = engine.check([str(tmp_path)], find_config, jobs=1, use_cache=False)
    assert result.files == 2
    assert walk.call_count == 1  # the folder given is the project: its files and the loader's, from one walk
    with mock.patch("jaxcheck.loading.files._listed", wraps=walking._listed) as walk:
        result = engine.check([str(tmp_path / "pkg")], find_config, jobs=1, use_cache=False)
    assert result.files == 2
    assert walk.call_count == 2  # a folder inside the project, then the project around it


def test_display_paths_and_module_names_are_what_relpath_says(tmp_path, monkeypatch):
    """`display_path` and `Project.module_name` cut a path below a folder
    instead of asking `os.path.relpath`: the same answer, for every place."""
    from jaxcheck.loading.files import display_path
    from jaxcheck.loading.project import Project

    _tree(tmp_path, ["work/src/pkg/__init__.py", "work/src/pkg/a.py", "work/tool.py", "other/b.py"])
    monkeypatch.chdir(tmp_path / "work")
    root = str(tmp_path / "work")
    project = Project(root + os.sep, (os.path.join(root, "src"), root))
    paths = ["src/pkg/a.py", "./tool.py", "../other/b.py", str(tmp_path / "other" / "b.py"), "src/pkg/__init__.py", "/x.py", "."]
    for path in paths:
        relative = os.path.relpath(os.path.abspath(path))
        assert display_path(path) == (path if relative.startswith("..") else relative), path
    assert [project.module_name(path) for path in paths[:5]] == [
        ("pkg.a", False), ("tool", False), ("b", False), ("b", False), ("pkg", True),
    ]


def _longest_defining_path(project, name: str):
    """The project file of the longest module prefix of the name, every prefix tried from the longest."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        found = project.module_paths(".".join(parts[:end]))
        if found:
            return os.path.abspath(found[0])
    return None


@pytest.mark.slow
def test_names_looked_up_from_the_shortest_prefix_find_the_longest_module_that_defines_them(tmp_path):
    """`Loader._file_of` looks a name's prefixes up from the shortest
    while the project has a folder of the last: the same file as trying every
    prefix from the longest, on namespace packages, stubs, a src layout, a
    module beside a folder of its name, and every name equinox and flax use."""
    from jaxcheck.engine import _project_files
    from jaxcheck.loading.cache import Cache
    from jaxcheck.loading.loader import Loader
    from jaxcheck.loading.pool import Pool
    from jaxcheck.loading.project import find_project
    from jaxcheck.loading.references import named_modules

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.setuptools.packages.find]\nwhere = ['src']\n")
    _tree(tmp_path, [
        "src/pkg/__init__.py", "src/pkg/mod.py", "src/pkg/ns/deep/leaf.py", "src/pkg/stub.pyi", "src/pkg/both.py",
        "src/pkg/both/inner.py", "src/top.py", "tools/script.py", "src/pkg/ns/empty/.keep",
    ])
    names = [
        "pkg", "pkg.mod", "pkg.mod.attr.more", "pkg.ns", "pkg.ns.deep", "pkg.ns.deep.leaf.fn", "pkg.ns.deep.missing.x",
        "pkg.ns.empty.x", "pkg.stub.T", "pkg.both.inner.f", "pkg.both.g", "top.f", "tools.script", "script.f", "numpy.sum",
        "builtins.len", "pkg.missing", "",
    ]
    project = find_project(str(tmp_path / "src" / "pkg" / "mod.py"))
    files, folders = _project_files(project, find_config(project.root), None, [], {})
    loader = Loader(project, Cache(None), Pool(1), files=files, folders=folders)
    assert [loader._file_of(name) for name in names] == [_longest_defining_path(loader.project, name) for name in names]
    assert loader._file_of("pkg.ns.deep.leaf.fn").endswith("leaf.py")  # through a folder with no __init__.py
    for library in ("equinox", "flax"):
        project = find_project(str(installed(library)))
        files, folders = _project_files(project, find_config(project.root), None, [], {})
        loader = Loader(project, Cache(None), Pool(1), files=files, folders=folders)
        loader.load(files)
        names = sorted({name for module in loader.facts.values() for name in named_modules(module, True)})
        assert len(names) > 500
        assert [loader._file_of(name) for name in names] == [_longest_defining_path(loader.project, name) for name in names]
