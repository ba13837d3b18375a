"""Which files a run checks: Python files and notebooks below the given paths, minus the excluded."""

from __future__ import annotations

import os
from typing import Callable, Iterable, Iterator, NamedTuple

# Folders no one wants linted: version control, caches, environments (flake8's
# defaults, plus virtualenvs and tool caches).
SKIPPED_FOLDERS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".bzr",
        "CVS",
        "__pycache__",
        ".tox",
        ".nox",
        ".venv",
        "venv",
        ".eggs",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".jaxcheck_cache",
        ".ipynb_checkpoints",
        "node_modules",
    }
)


_SUFFIXES = (".py", ".pyi", ".ipynb")  # what a folder's files are checked for


def is_virtualenv(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, "pyvenv.cfg"))


def python_files(
    path: str,
    is_excluded: Callable[[str, bool], bool],
    unreadable: list[tuple[str, str]] | None = None,
    packages_only: bool = False,
) -> Iterator[str]:
    """The files to check for one path given on the command line, in a stable order.

    A file named on the command line is checked whatever its suffix, unless the
    config excludes it; folders are searched for `*.py`, `*.pyi` and `*.ipynb` files. A
    folder that cannot be listed is added to `unreadable`, with why. With
    `packages_only`, the folders directly in `path` are searched only when
    they are packages (hold an `__init__.py`).
    """
    if os.path.isdir(path):
        for folder, _, found, _ in _listed(path, is_excluded, unreadable if unreadable is not None else [], packages_only):
            prefix = os.path.join(folder, "")
            for name, _, checked in found:
                if checked:
                    yield prefix + name
    elif not is_excluded(path, False):
        yield path


def real_path(path: str, real_folders: dict[str, str]) -> str:
    """`os.path.realpath` of a file's path, its folder resolved once for all
    the files in it (`real_folders` keeps them, for one working folder): a
    file that is not a link is where its folder really is, so only a link is
    resolved on its own."""
    if os.path.islink(path):
        return os.path.realpath(path)
    return _in_real_folder(*os.path.split(path), real_folders)


def _in_real_folder(folder: str, name: str, real_folders: dict[str, str]) -> str:
    """The real path of a file that is not a link: its folder's, resolved once."""
    real = real_folders.get(folder)
    if real is None:
        real = real_folders[folder] = os.path.realpath(folder)
    return os.path.join(real, name)


def skipped_because(path: str) -> str:
    """Why a file found or named is not checked, for a note; "" when it is checked.

    A stub beside its module's source declares the same module, whose code is
    in the `.py` file."""
    if path.endswith(".pyi") and os.path.isfile(path[:-1]):
        return f"a stub of the same module as {os.path.basename(path[:-1])}, which is checked"
    return ""


class Listing(NamedTuple):
    """A project folder walked once (`project_files`), every path below its root as the root is spelled."""

    checked: list[str]  # the files not excluded, in the walk's order (`python_files`)
    every: list[str]  # every file, excluded or not
    walked: dict[str, set[str]]  # each folder walked -> the names of the folders in it, searched or not
    groups: list[tuple[str, list[tuple[str, bool]]]]  # each folder -> its files of `checked`: (name, whether a link)
    unreadable: list[tuple[str, str]]  # the folders outside the excluded ones that could not be listed, and why
    links: list[str]  # the files of `every` that are links


def project_files(root: str, is_excluded: Callable[[str, bool], bool], packages_only: bool = False) -> Listing:
    """The files of a project folder in one walk: those not excluded, and
    every one, excluded or not (`python_files` of each), in its order; and
    each folder walked, as `os.path.dirname` spells its files' folder, with
    the names of the folders in it, for the lookups to ask instead of the disk.

    A project's analysis needs both lists (the fingerprint counts excluded
    files too), and in a monorepo a second walk costs as much as the first:
    so the folders the config excludes are walked too, their files listed as
    excluded. A folder that cannot be listed is left out. When the project
    is the folder given, the run's files come from the same walk
    (`located_files`)."""
    checked: list[str] = []
    every: list[str] = []
    walked: dict[str, set[str]] = {}
    groups: list[tuple[str, list[tuple[str, bool]]]] = []
    unreadable: list[tuple[str, str]] = []
    links: list[str] = []
    for folder, excluded, found, folders in _listed(root, is_excluded, unreadable, packages_only, into_excluded=True):
        walked[folder] = folders
        prefix = os.path.join(folder, "")
        every += [prefix + name for name, _, _ in found]
        links += [prefix + name for name, is_link, _ in found if is_link]
        if not excluded:
            group = [(name, is_link) for name, is_link, is_checked in found if is_checked]
            checked += [prefix + name for name, _ in group]
            groups.append((folder, group))
    return Listing(checked, every, walked, groups, unreadable, links)


def _searched(top: str, folder: str, name: str, packages_only: bool) -> bool:
    """Whether a folder found in `folder` is searched, whatever the config excludes."""
    return (
        name not in SKIPPED_FOLDERS
        and not name.endswith((".egg-info", ".egg"))
        and not is_virtualenv(os.path.join(folder, name))
        and not (packages_only and folder == top and not os.path.isfile(os.path.join(folder, name, "__init__.py")))
    )


def _listed(
    top: str,
    is_excluded: Callable[[str, bool], bool],
    unreadable: list[tuple[str, str]],
    packages_only: bool,
    into_excluded: bool = False,
) -> Iterator[tuple[str, bool, list[tuple[str, bool, bool]], set[str]]]:
    """Each folder below `top`, whether the config excludes it (or one above
    it), its files (name, whether it is a link, whether it is checked: not
    excluded) and the names of the folders in it, in the order `os.walk`
    gives them, folders and files sorted. The excluded folders are walked
    only `into_excluded`; a folder that cannot be listed there is not told
    of. A link to a folder is not followed, as flake8 does not: it may lead
    out of the project (`ln -s /usr x`) or back into it (a loop). What a
    folder's listing says of an entry (a link or not) is kept: a big
    project's files are not asked of the disk once more each. A folder at a
    time: a path is its folder's prefix and a name, not a join a file."""
    pending = [(top, False)]
    while pending:
        folder, excluded = pending.pop()
        try:
            with os.scandir(folder) as entries:
                folders, files = [], []
                for entry in entries:
                    try:
                        is_dir = entry.is_dir()
                    except OSError:
                        is_dir = False
                    if is_dir:
                        folders.append(entry)
                    elif entry.name.endswith(_SUFFIXES):
                        files.append(entry)
        except OSError as error:
            if not excluded:
                unreadable.append((error.filename or folder, f"cannot read the folder: {error.strerror or error}"))
            continue
        prefix = os.path.join(folder, "")
        files.sort(key=_name)
        yield folder, excluded, [
            (entry.name, entry.is_symlink(), not excluded and not is_excluded(prefix + entry.name, False)) for entry in files
        ], {entry.name for entry in folders}
        below = []
        for entry in sorted(folders, key=_name):
            path = prefix + entry.name
            if _searched(top, folder, entry.name, packages_only) and not entry.is_symlink():
                skipped = excluded or is_excluded(path, True)
                if into_excluded or not skipped:
                    below.append((path, skipped))
        pending.extend(reversed(below))  # the first folder is walked next, as `os.walk` does


def _name(entry: os.DirEntry) -> str:
    return entry.name


def located_files(
    path: str,
    is_excluded: Callable[[str, bool], bool],
    unreadable: list[tuple[str, str]],
    real_folders: dict[str, str],
    listing: Listing | None = None,
) -> Iterator[tuple[str, list[tuple[str, str, str]]]]:
    """Each folder's absolute path and (the file as spelled, its absolute
    path, its real path) of each of its files `python_files` gives for
    `path`: a folder's absolute and real paths are found once for all its
    files (`real_path`), and a file found in a folder is known for a link by
    the folder's listing. `listing`: the project's walk of the same folder
    (`project_files`), whose paths are spelled as `path` spells them here."""
    if not os.path.isdir(path):
        if not is_excluded(path, False):
            absolute = os.path.abspath(path)
            yield os.path.dirname(absolute), [(path, absolute, real_path(path, real_folders))]
        return
    if listing is None:
        groups: Iterable = (
            (folder, [(name, is_link) for name, is_link, checked in found if checked])
            for folder, _, found, _ in _listed(path, is_excluded, unreadable, False)
        )
    else:
        root = os.path.join(os.path.abspath(path), "")
        unreadable += [(_spelled(folder, root, path), why) for folder, why in listing.unreadable]
        groups = listing.groups
    for folder, found in groups:
        if not found:
            continue
        spelled = os.path.join(folder if listing is None else _spelled(folder, root, path), "")
        absolute = os.path.abspath(folder)
        real = real_folders.get(absolute)
        if real is None:
            real = real_folders[absolute] = os.path.realpath(absolute)
        absolute_prefix, real_prefix = os.path.join(absolute, ""), os.path.join(real, "")
        yield absolute, [
            (spelled + name, absolute_prefix + name, os.path.realpath(spelled + name) if is_link else real_prefix + name)
            for name, is_link in found
        ]


def _spelled(folder: str, root: str, path: str) -> str:
    """A folder of a walk of `root` (an absolute path, ending in a separator)
    as a walk of `path`, the same folder spelled as given, spells it."""
    return os.path.join(path, folder[len(root) :]) if folder.startswith(root) else path


def display_path(path: str) -> str:
    """How messages name a file: relative to the working folder when below it."""
    absolute = os.path.abspath(path)
    below = os.path.join(os.getcwd(), "")
    if absolute.startswith(below):
        return absolute[len(below) :]
    relative = os.path.relpath(absolute)
    return path if relative.startswith("..") else relative


def inside(path: str, real_root: str) -> bool:
    """Whether the file really is below the folder `real_root` (a real path):
    a link that leads out of the project is not read."""
    return os.path.realpath(path).startswith(os.path.join(real_root, ""))
