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


def skipped_because(path: str) -> str:
    """Why a file found or named is not checked, for a note; "" when it is checked.

    A stub beside its module's source declares the same module, whose code is
    in the `.py` file."""
    if path.endswith(".pyi") and os.path.isfile(path[:-1]):
        return f"a stub of the same module as {os.path.basename(path[:-1])}, which is checked"
    return ""


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
            if name not in SKIPPED_FOLDERS
            and not name.endswith((".egg-info", ".egg"))
            and not is_virtualenv(os.path.join(folder, name))
            and not is_excluded(os.path.join(folder, name), True)
            and not (packages_only and folder == top and not os.path.isfile(os.path.join(folder, name, "__init__.py")))
        )
        for name in sorted(files):
            if name.endswith((".py", ".pyi", ".ipynb")):
                path = os.path.join(folder, name)
                if not is_excluded(path, False):
                    yield path
