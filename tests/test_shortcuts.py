"""Every speed shortcut leaves the findings as they were, on real code.

The collector settings (`jaxcheck/collector.py`), the position pass
(`extraction/tree.py`) and the reading in worker processes are checked
here against the plain way: Python's default collector, LibCST's own
`PositionProvider`, and `--jobs 1`. The code is the
installed equinox and flax (none of it ours) and the bundled fixtures, which
hold a finding of every rule.
"""

from __future__ import annotations

import contextlib
import gc
import glob
import json
import os
import subprocess
import sys
from unittest import mock

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

import jaxcheck.engine as engine
import jaxcheck.loading.files as walking
from jaxcheck.config import find_config
from jaxcheck.extraction.tree import Positions
from helpers import BUGGY, installed, jaxcheck_run

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures")



def _findings():
    libraries = engine.check([str(installed("equinox")), str(installed("flax"))], find_config, jobs=1, use_cache=False)
    fixtures = engine.check([FIXTURES], find_config, jobs=1, alone=True)  # each file a project: the repository unread
    return libraries.files, libraries.findings + fixtures.findings


def test_the_collector_settings_change_no_finding_on_real_code():
    files, tuned = _findings()
    plain_collector = lambda kept=False: contextlib.nullcontext()  # noqa: E731
    with mock.patch.object(engine, "few_collections", plain_collector), mock.patch.object(engine, "paused", plain_collector):
        plain_files, plain = _findings()
    assert files == plain_files > 150
    assert len({finding.code for finding in plain}) > 10  # the input reaches every rule
    assert tuned == plain


# `--jobs 2` with the pool's workers where children cannot be forked (the language server, other platforms).
_WITHOUT_LANES = "import sys; from jaxcheck.loading import lanes; lanes.can_fork = lambda: False; from jaxcheck.cli import main; sys.exit(main())"


@pytest.mark.skipif(os.name != "posix", reason="forks a worker")
@pytest.mark.parametrize("how", ["lanes", "pool"])
def test_files_read_by_workers_change_no_finding_on_real_code(tmp_path, how):
    """`--jobs 2`: facts read in other processes (forked children, or the
    pool's workers) come back encoded, the syntax of the files not read is
    checked there, and LibCST's confirmation runs there too. In a fresh
    process: children forked from this one would inherit JAX's threads."""
    paths = [str(installed("equinox")), str(installed("flax")), FIXTURES]
    args = ["check", "--no-cache", "--profile", "strict", "--output-format", "json", *paths]
    serial = json.loads(jaxcheck_run(*args, "--jobs", "1", cwd=tmp_path).stdout)
    if how == "lanes":
        can_fork = "from jaxcheck.loading import lanes; print(lanes.can_fork())"
        assert subprocess.run([sys.executable, "-c", can_fork], capture_output=True, text=True).stdout == "True\n"
        shared = json.loads(jaxcheck_run(*args, "--jobs", "2", cwd=tmp_path).stdout)
    else:
        command = [sys.executable, "-c", _WITHOUT_LANES, *args, "--jobs", "2"]
        shared = json.loads(subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120).stdout)
    assert len({record["code"] for record in serial}) > 10  # the input reaches every rule
    assert shared == serial


def test_a_run_gives_the_collector_back_as_it_found_it():
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    engine.check([os.path.join(FIXTURES, "JAX101")], find_config, jobs=1, alone=True)
    assert (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()) == (threshold, frozen, True)


# What the extraction asks the position of: expressions, statements, arguments, elements.
_LOCATED = (cst.BaseExpression, cst.BaseSmallStatement, cst.BaseCompoundStatement, cst.Arg, cst.BaseElement, cst.BaseDictElement, cst.Param)


def _modules(*packages: str, every: int = 1) -> list[str]:
    files = []
    for package in packages:
        files += sorted(glob.glob(os.path.join(str(installed(package)), "**", "*.py"), recursive=True))[::every]
    return files


@pytest.mark.parametrize("path", _modules("equinox") + _modules("flax", every=4), ids=lambda path: path.rsplit("site-packages", 1)[-1])
def test_positions_are_where_libcst_itself_puts_them(path):
    with open(path, encoding="utf-8") as handle:
        tree = cst.parse_module(handle.read())
    theirs = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    ours = Positions(tree)
    compared = 0
    for node, where in theirs.items():
        if not isinstance(node, _LOCATED):
            continue
        if isinstance(node, cst.Tuple) and node.lpar:  # ours keeps a tuple's parentheses, as Python's `ast` does
            continue
        assert ours.start(node) == (where.start.line, where.start.column + 1), (type(node).__name__, where.start)
        compared += 1
    assert compared > 0 or not tree.body


def test_the_node_classes_compared_by_identity_have_no_subclasses():
    """The extraction compares `type(node) is cst.Name` (isinstance's ABC check
    costs more than the comparison): right only while LibCST subclasses none of them."""
    import re

    import jaxcheck.extraction.module as module
    import jaxcheck.extraction.tree as tree

    source = "".join(open(m.__file__, encoding="utf-8").read() for m in (module, tree))
    names = set(re.findall(r"\bis (?:not )?cst\.(\w+)", source))
    names |= {cls.__name__ for group in (module._DISPLAYS, module._COMPREHENSIONS, module._NUMBERS_AND_STRINGS) for cls in group}
    assert len(names) > 15
    assert [name for name in sorted(names) if getattr(cst, name).__subclasses__()] == []


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
    """The loader's files and its fingerprint's come from one walk
    (`Workspace._listing`), and so do the run's when the folder given is the
    project (`engine._project_walk`)."""
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
    from jaxcheck.loading.loader import display_path
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


# A build of each library in one process, then with forked children (`--jobs 2`): the files it read, and the users' verdicts.
_BUILDS = """
import json, sys
from jaxcheck.loading.cache import FactsCache
from jaxcheck.loading.loader import Pool, Workspace
from jaxcheck.loading.project import find_project
from jaxcheck.loading.stamps import TAKING_PART, USER

def refused(text):
    raise AssertionError("a verdict the build kept is asked again")

noting = Workspace._noted
found = {}
for how, jobs in (("plain", 1), ("one", 1), ("shared", 2)):
    # plain: what `build` asks of each module's facts, found after each wave; else as each file comes
    Workspace._noted = (lambda self, whole, offering: lambda outcome: None) if how == "plain" else noting
    for folder in sys.argv[1:]:
        pool = Pool(jobs) if jobs > 1 else None
        workspace = Workspace(find_project(folder), FactsCache(None), pool)
        files = workspace.files()
        workspace.build(files)
        if pool is not None:
            pool.close()
        others = [path for path in files if not workspace.verdict(path, TAKING_PART, refused)]
        verdicts = {path: workspace.verdict(path, USER, refused) for path in others}
        found.setdefault(how, []).append({"read": sorted(workspace.facts), "users": verdicts})
print(json.dumps(found))
"""


@pytest.mark.skipif(os.name != "posix", reason="forks children")
def test_a_build_beside_children_reads_what_one_process_reads(tmp_path):
    """What `build` asks of each module read (the modules it names, the names
    it offers) is found as each file comes, and with children (`--jobs 2`)
    the users' test is shared with them: the same files read, and the same
    users' verdicts kept, as when all is asked after each wave in one
    process. In a fresh process, which can fork."""
    folders = [str(installed("equinox")), str(installed("flax"))]
    done = subprocess.run([sys.executable, "-c", _BUILDS, *folders], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    plain = found["plain"]
    assert all(len(build["read"]) > 40 for build in plain)  # the input reaches the waves
    verdicts = [verdict for build in plain for verdict in build["users"].values()]
    assert len(verdicts) > 100 and True in verdicts and False in verdicts  # the users' test judges many, both ways
    assert found["one"] == plain
    assert found["shared"] == plain


# `--jobs 2` on a project whose quicker reader is made to go wrong in one file: LibCST, started on it
# while the rules run (`Workspace.confirm_soon`), decides; or its reader crashes there.
_CONFIRMED = """
import json, os, sys
import jaxcheck.extraction as extraction
from jaxcheck.config import find_config
from jaxcheck.engine import check
from jaxcheck.extraction.ast_reader import ast_facts
from jaxcheck.loading.loader import Workspace

how, jobs = sys.argv[1], int(sys.argv[2])
me = os.getpid()
# Reads `Scaler` as mutable: a text of its own, not the tree parsed with Python's verdict.
extraction.ast_facts = lambda text, path, module, is_package, tree=None: ast_facts(
    text.replace("(frozen=True)", ""), path, module, is_package
)
if how == "crash":
    real = extraction.extract_facts

    def extract(tree, path, *args):
        if path.endswith("m.py") and os.getpid() != me:
            os._exit(139)  # LibCST's native parser crashing the child reading this file
        return real(tree, path, *args)

    extraction.extract_facts = extract
started = []  # the files LibCST was started on in a child, while the rules ran
helped = []  # whether the pool's helper read them: no fork while the rules run
soon = Workspace.confirm_soon


def confirm_soon(self, paths):
    soon(self, paths)
    started.extend(os.path.basename(path) for path in self._confirming if os.path.basename(path) not in started)
    helped.extend(type(sent).__name__ == "Sent" for sent, _ in self._confirming.values())


Workspace.confirm_soon = confirm_soon
findings = check(["."], find_config, jobs=jobs, use_cache=False).findings
print(json.dumps({"found": sorted([finding.path, finding.code, finding.message[:40]] for finding in findings), "started": started, "helped": helped}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks children")
@pytest.mark.parametrize("how", ["disagree", "crash"])
def test_libcst_started_while_the_rules_run_decides_as_after_them(tmp_path, how):
    """The files of the first rules' findings are read by LibCST in a child
    (the pool's helper, forked before the facts were read) while the other
    rules run: where the readers disagree, LibCST's facts
    decide, as when it reads after the rules (`--jobs 1`); where its
    reader crashes the child, the file is read again apart, and crashes
    there: its JAX000, every other file checked."""
    from test_ast_reader import PASSING

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "m.py").write_text(PASSING)
    (tmp_path / "m2.py").write_text(PASSING.replace("(frozen=True)", ""))  # mutable indeed: read with m.py in one child
    (tmp_path / "buggy.py").write_text(BUGGY)
    runs = {}
    for jobs in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", _CONFIRMED, how, jobs], capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert done.returncode == 0, done.stderr
        runs[jobs] = json.loads(done.stdout)
    assert runs["1"]["started"] == []  # no child to start one in
    assert {"m.py", "m2.py"} <= set(runs["2"]["started"])  # the quicker reader's JAX106 there
    assert runs["2"]["helped"] and all(runs["2"]["helped"])
    assert [code for path, code, _ in runs["2"]["found"] if path.endswith("/m.py")] == (["JAX000"] if how == "crash" else [])
    assert [code for path, code, _ in runs["2"]["found"] if path.endswith("m2.py")] == ["JAX106"]
    assert [code for path, code, _ in runs["2"]["found"] if path.endswith("buggy.py")] == ["JAX101", "JAX102"]
    if how == "disagree":
        assert runs["2"]["found"] == runs["1"]["found"]


def test_the_walk_answers_the_lookups_as_the_disk_does(tmp_path):
    """A warm run's lookups ask the walk (`Workspace._is_file`, `_is_dir`), not
    the disk: the same answers for every name's files and folders, through
    links, skipped, excluded and virtualenv folders, folders with no Python
    file, and folders that do not exist."""
    from jaxcheck.config import Config
    from jaxcheck.loading.cache import FactsCache
    from jaxcheck.loading.loader import Workspace
    from jaxcheck.loading.project import find_project

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    _tree(tmp_path, [
        "src/pkg/__init__.py", "src/pkg/mod.py", "src/pkg/ns/deep/leaf.py", "src/pkg/stub.pyi", "src/pkg/data/.keep",
        "src/pkg/both.py", "src/pkg/both/inner.py", "gen/made.py", "gen/sub/more.py", ".venv/lib/venvmod.py",
        "node_modules/nm.py", "env/pyvenv.cfg", "env/envmod.py", "top.py", "empty/notes.txt",
    ])
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "far.py").write_text("x = 1\n")
    (tmp_path / "linked").symlink_to(tmp_path / "outside", target_is_directory=True)
    (tmp_path / "src" / "pkg" / "alias.py").symlink_to(tmp_path / "top.py")
    config = Config(root=str(tmp_path), exclude=("gen/",))
    workspace = Workspace(find_project(str(tmp_path / "top.py")), FactsCache(None), is_excluded=config.is_excluded)
    is_dir = workspace._is_dir()
    is_file = workspace._is_file(is_dir)
    names = [
        "pkg", "pkg.mod", "pkg.mod.attr", "pkg.ns", "pkg.ns.deep.leaf", "pkg.ns.missing.x", "pkg.stub", "pkg.data.x",
        "pkg.both.inner", "pkg.alias", "gen.made", "gen.sub.more", "venv.lib", ".venv.lib.venvmod", "node_modules.nm",
        "env.envmod", "top", "empty", "empty.notes", "linked.far", "outside.far", "missing.deep.x", "src.pkg.mod",
    ]
    project = workspace.project
    for name in [name[:end] for name in names for end in range(1, len(name) + 1) if end == len(name) or name[end] == "."]:
        assert project.module_paths(name, is_file) == project.module_paths(name), name
        assert project.holds_modules(name, is_dir) == project.holds_modules(name), name
    for folder, folders, files in os.walk(tmp_path):  # what the lookups ask: module files and folders
        for entry in [*folders, *files, "nothing", "nothing.py", "nothing.pyi"]:
            path = os.path.join(folder, entry)
            assert (is_dir(path), is_dir(path + os.sep)) == (os.path.isdir(path), os.path.isdir(path)), path
            if entry.endswith((".py", ".pyi")):
                assert is_file(path) == os.path.isfile(path), path


def _longest_defining_path(project, name: str):
    """The project file of the longest module prefix of the name, every prefix tried from the longest."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        found = project.module_paths(".".join(parts[:end]))
        if found:
            return os.path.abspath(found[0])
    return None


def test_names_looked_up_from_the_shortest_prefix_find_the_longest_module_that_defines_them(tmp_path):
    """`Workspace._defining_path` looks a name's prefixes up from the shortest
    while the project has a folder of the last: the same file as trying every
    prefix from the longest, on namespace packages, stubs, a src layout, a
    module beside a folder of its name, and every name equinox and flax use."""
    from jaxcheck.loading.cache import FactsCache
    from jaxcheck.loading.loader import Workspace
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
    workspace = Workspace(find_project(str(tmp_path / "src" / "pkg" / "mod.py")), FactsCache(None))
    assert [workspace._defining_path(name) for name in names] == [_longest_defining_path(workspace.project, name) for name in names]
    assert workspace._defining_path("pkg.ns.deep.leaf.fn").endswith("leaf.py")  # through a folder with no __init__.py
    for library in ("equinox", "flax"):
        workspace = Workspace(find_project(str(installed(library))), FactsCache(None))
        workspace.build(workspace.files())
        names = sorted({name for module in workspace.facts.values() for name in named_modules(module, True)})
        assert len(names) > 500
        assert [workspace._defining_path(name) for name in names] == [_longest_defining_path(workspace.project, name) for name in names]


_KEPT_RUN = """
import gc, sys
from jaxcheck import engine
from jaxcheck.config import find_config

threshold = gc.get_threshold()
engine.keep_workspaces()  # as the command line does: what a run built lives until the process exits
engine.check([sys.argv[1]], find_config, jobs=1, alone=True)
kept = gc.get_freeze_count()
print(gc.get_threshold() == threshold, kept > 0, gc.get_count()[0] < 1000)
"""


def test_what_a_run_keeps_until_the_process_exits_is_never_walked_again():
    """The command line's report comes after the run, with the collector's own
    settings: the facts it keeps are frozen, not given back to be walked."""
    completed = subprocess.run([sys.executable, "-c", _KEPT_RUN, os.path.join(FIXTURES, "JAX101")], capture_output=True, text=True, timeout=120)
    assert completed.stdout.split() == ["True", "True", "True"], completed.stderr
