"""Which files a run checks: Python files and notebooks below the given paths, minus the excluded."""

from __future__ import annotations

import os
from typing import Callable, Iterator

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
        yield from _walk(path, is_excluded, unreadable if unreadable is not None else [], packages_only)
    elif not is_excluded(path, False):
        yield path


def real_path(path: str, real_folders: dict[str, str]) -> str:
    """`os.path.realpath` of a file's path, its folder resolved once for all
    the files in it (`real_folders` keeps them, for one working folder): a
    file that is not a link is where its folder really is, so only a link is
    resolved on its own."""
    if os.path.islink(path):
        return os.path.realpath(path)
    folder, name = os.path.split(path)
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


def project_files(
    root: str, is_excluded: Callable[[str, bool], bool], packages_only: bool = False
) -> tuple[list[str], list[str]]:
    """The files of a project folder in one walk: those not excluded, and
    every one, excluded or not (`python_files` of each), in its order.

    A project's analysis needs both (the fingerprint counts excluded files
    too), and in a monorepo a second walk costs as much as the first: so the
    folders the config excludes are walked too, their files listed as
    excluded. A folder that cannot be listed is left out of both."""
    checked: list[str] = []
    every: list[str] = []
    excluded_folders: set[str] = set()
    for folder, folders, files in os.walk(root):
        below_excluded = folder in excluded_folders
        folders[:] = sorted(name for name in folders if _searched(root, folder, name, packages_only))
        if not below_excluded:
            excluded_folders.update(
                os.path.join(folder, name) for name in folders if is_excluded(os.path.join(folder, name), True)
            )
        else:
            excluded_folders.update(os.path.join(folder, name) for name in folders)
        for name in sorted(files):
            if name.endswith((".py", ".pyi", ".ipynb")):
                path = os.path.join(folder, name)
                every.append(path)
                if not below_excluded and not is_excluded(path, False):
                    checked.append(path)
    return checked, every


def _searched(top: str, folder: str, name: str, packages_only: bool) -> bool:
    """Whether a folder found in `folder` is searched, whatever the config excludes."""
    return (
        name not in SKIPPED_FOLDERS
        and not name.endswith((".egg-info", ".egg"))
        and not is_virtualenv(os.path.join(folder, name))
        and not (packages_only and folder == top and not os.path.isfile(os.path.join(folder, name, "__init__.py")))
    )


def _walk(
    top: str, is_excluded: Callable[[str, bool], bool], unreadable: list[tuple[str, str]], packages_only: bool
) -> Iterator[str]:
    """A link to a folder is not followed, as flake8 does not: it may lead out
    of the project (`ln -s /usr x`) or back into it (a loop)."""

    def failed(error: OSError) -> None:
        unreadable.append((error.filename or top, f"cannot read the folder: {error.strerror or error}"))

    for folder, folders, files in os.walk(top, onerror=failed):
        folders[:] = sorted(
            name
            for name in folders
            if _searched(top, folder, name, packages_only) and not is_excluded(os.path.join(folder, name), True)
        )
        for name in sorted(files):
            if name.endswith((".py", ".pyi", ".ipynb")):
                path = os.path.join(folder, name)
                if not is_excluded(path, False):
                    yield path
