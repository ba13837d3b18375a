"""The project a file belongs to: its root, and the module name of each of its files."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from functools import lru_cache

MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")


@dataclass(frozen=True)
class Project:
    """A folder of Python files that import each other.

    `root` holds the project (and its cache); module names are relative to the
    first of `source_roots` that contains a file (`src/` before the root).
    """

    root: str
    source_roots: tuple[str, ...]
    only: tuple[str, ...] = ()  # a project of just these files, analysed alone (no cache)
    # Found by a marker (pyproject.toml, .git, ...): only such a project keeps
    # a cache, so that a stray folder of scripts does not fill the user's cache.
    marked: bool = True
    # A folder of scripts with no marker and no `__init__.py`: its own modules
    # and the packages in it, not every folder below.
    loose: bool = False

    @classmethod
    def alone(cls, path: str) -> Project:
        """A file as a project of its own: nothing else is read."""
        path = os.path.abspath(path)
        folder = os.path.dirname(path)
        return cls(folder, (folder,), (path,))

    @property
    def real_root(self) -> str:
        """The root's real path: no file whose real path is outside it is read."""
        return _real_path(self.root)

    def module_name(self, path: str) -> tuple[str, bool]:
        """The dotted module a file defines, and whether it is a package's `__init__`."""
        path = os.path.abspath(path)
        base = next(
            (root.rstrip(os.sep) + os.sep for root in self.source_roots if path.startswith(root.rstrip(os.sep) + os.sep)),
            os.path.join(os.path.dirname(path), ""),
        )
        # What `relpath` would say: a folder the normalized path starts with is normalized too.
        parts = path[len(base) :].split(os.sep)
        stem = parts[-1].rsplit(".", 1)[0] if "." in parts[-1] else parts[-1]
        if parts[-1].endswith(".ipynb"):
            stem += "-ipynb"  # a notebook is a script no import reaches: a name none can spell
        is_package = stem == "__init__"
        parts = parts[:-1] if is_package else [*parts[:-1], stem]
        return ".".join(parts) or stem, is_package

    def module_paths(self, module: str, is_file=os.path.isfile) -> list[str]:
        """The project files that could define `module`, in import order
        (`is_file`: whether a path is a file, when the caller knows quicker)."""
        relative = module.replace(".", os.sep)
        candidates = []
        for root in self.source_roots:
            base = os.path.join(root, relative)  # `os.path.join(root, relative + ".py")`, joined once
            candidates += [base + ".py", os.path.join(base, "__init__.py"), base + ".pyi"]
        inside = self.root.rstrip(os.sep) + os.sep
        return [path for path in candidates if path.startswith(inside) and is_file(path)]

    def holds_modules(self, module: str, is_dir=os.path.isdir) -> bool:
        """Whether a source root holds a folder of `module` inside the project:
        where none does, no longer dotted name is a module of the project
        (`is_dir`: whether a path is a folder, when the caller knows quicker)."""
        relative = module.replace(".", os.sep)
        inside = self.root.rstrip(os.sep) + os.sep
        return any(
            folder.startswith(inside) and is_dir(folder)
            for folder in (os.path.join(root, relative) + os.sep for root in self.source_roots)
        )

    def import_roots(self, files: list[str]) -> dict[str, str]:
        """Top-level names Python imports from a folder inside the project, not
        from a source root, and the module names the project gives them:
        `{"pkg": "services.trainer.pkg"}` for `services/trainer/pkg/__init__.py`.

        Such a folder holds a package's topmost `__init__.py` (a monorepo's
        service, a test folder): Python imports from it when it is on the path,
        so the regular and namespace packages and the modules beside that
        package are importable by their short names. A name importable from a
        source root keeps its meaning; one that two folders offer is left alone.
        """
        if self.only:
            return {}
        packages = {os.path.dirname(path) for path in files if os.path.basename(path) == "__init__.py"}
        inside = self.root.rstrip(os.sep) + os.sep
        roots = {
            os.path.dirname(package)
            for package in packages
            if package.startswith(inside) and not _within_a_package(os.path.dirname(package), packages, inside)
        } - set(self.source_roots)
        if not roots:
            return {}
        offered: dict[str, set[str]] = {}
        for path in files:
            folder = os.path.dirname(path)
            below = os.path.basename(path)
            while folder.startswith(inside):
                if folder in roots:
                    name = below[: -len(".py")] if below.endswith(".py") else below
                    if name.isidentifier():
                        offered.setdefault(name, set()).add(self.module_name(os.path.join(folder, name, "__init__.py"))[0])
                folder, below = os.path.dirname(folder), os.path.basename(folder)
        return {
            name: next(iter(modules))
            for name, modules in offered.items()
            if len(modules) == 1 and name not in sys.stdlib_module_names and not self._importable(name)
        }

    def _importable(self, name: str) -> bool:
        """Whether a top-level name is a module or a (namespace) package of a source root."""
        return bool(self.module_paths(name)) or any(os.path.isdir(os.path.join(root, name)) for root in self.source_roots)


def _within_a_package(folder: str, packages: set[str], inside: str) -> bool:
    """Whether the folder, or one above it in the project, is a regular package:
    then it is a namespace portion of that package (`torax/_src`), not a root."""
    while folder.startswith(inside):
        if folder in packages:
            return True
        folder = os.path.dirname(folder)
    return False


def find_project(path: str) -> Project:
    """The nearest folder above `path` holding a project marker.

    Without one, the outermost package around `path` (so a copy of installed
    packages is a project of its own), also from a folder of it that has no
    `__init__.py`, or the folder's own modules and packages; neither keeps
    a cache.
    """
    path = os.path.abspath(path)  # cached by where it is: `pkg/a.py` changes with a chdir
    return _find_project(path if os.path.isdir(path) else os.path.dirname(path))  # a file's is its folder's


@lru_cache(maxsize=1024)
def _find_project(start: str) -> Project:
    folder = start
    while True:
        if any(os.path.exists(os.path.join(folder, marker)) for marker in MARKERS):
            src = os.path.join(folder, "src")
            return Project(folder, ((src,) if os.path.isdir(src) else ()) + (folder,))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    # A folder without `__init__.py` inside a package is a namespace subpackage
    # of it (`evosax/problems/bbob/`): Python imports it by the package's name.
    top = start
    while os.path.isfile(os.path.join(os.path.dirname(top), "__init__.py")):
        top = os.path.dirname(top)
    if top != start or os.path.isfile(os.path.join(start, "__init__.py")):
        return Project(top, (os.path.dirname(top),), marked=False)
    return Project(start, (start,), marked=False, loose=True)


@lru_cache(maxsize=1024)
def _real_path(path: str) -> str:
    return os.path.realpath(path)
