"""Where a runtime finding points: the `class` line of a class, the line of one
of its fields, the line a call or a `jax.jit` was made on, spelled as the user
typed the path (relative to the working folder when below it)."""

from __future__ import annotations

import ast
import functools
import inspect
import linecache
import os
import sys
from dataclasses import dataclass

from jaxcheck.watch.snapshot import LIBRARIES

_OWN = os.path.dirname(os.path.abspath(__file__))
# Frames in these folders are not the user's: the place of a call is the first frame outside them.
_SKIPPED = (_OWN, os.path.dirname(os.__file__))


@dataclass(frozen=True)
class Site:
    path: str  # as findings spell it
    line: int
    column: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


def of_frame(frame) -> Site:
    """The place a frame is at: its line, and the column of the call it is making."""
    code = frame.f_code
    return Site(spelled(code.co_filename), frame.f_lineno, _column(code, frame.f_lasti, frame.f_lineno))


@functools.lru_cache(maxsize=4096)
def _column(code, offset: int, line: int) -> int:
    positions = getattr(code, "co_positions", None)
    if positions is None:
        return 1
    for index, (start, _, column, _) in enumerate(positions()):
        if index == offset // 2:
            return column + 1 if column is not None and start == line else 1
    return 1


@functools.lru_cache(maxsize=4096)
def spelled(filename: str) -> str:
    """A file's path as the user would type it: relative to the working folder when below it
    (the working folder when first asked: `forget()` at the start of a watch)."""
    if not filename or filename.startswith("<"):
        return filename or "<unknown>"
    absolute = os.path.abspath(filename)
    here = os.getcwd()
    if absolute.startswith(here + os.sep):
        return os.path.relpath(absolute, here)
    return absolute


def forget() -> None:
    spelled.cache_clear()


def caller(depth: int = 2) -> Site | None:
    """The place of the first frame outside jaxcheck.watch and the libraries, `depth` frames up to start."""
    try:
        frame = sys._getframe(depth)
    except ValueError:
        return None
    while frame is not None and _library(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return None
    return of_frame(frame)


@functools.lru_cache(maxsize=4096)
def _library(filename: str) -> bool:
    if filename.startswith(_SKIPPED) or filename.startswith("<frozen"):
        return True
    parts = filename.replace("\\", "/").split("/")
    if "site-packages" in parts or "dist-packages" in parts:
        # The user's own package installed in development mode is not a library; jax, equinox and flax are.
        index = max(i for i, part in enumerate(parts) if part in ("site-packages", "dist-packages"))
        top = parts[index + 1] if index + 1 < len(parts) else ""
        return top.split(".")[0] in _LIBRARIES
    return False


# Installed packages whose frames are not the program's place: JAX's libraries and the machinery that runs it.
_LIBRARIES = LIBRARIES | {"functools", "contextlib", "_pytest", "pytest", "pluggy", "runpy"}


@functools.lru_cache(maxsize=256)
def _tree(filename: str) -> ast.Module | None:
    try:
        with open(filename, encoding="utf-8") as stream:
            return ast.parse(stream.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None


def _class_file(cls) -> str | None:
    """The file a class is defined in: its module's, else the file of one of its methods (a module
    loaded without `sys.modules`, as a test or a notebook may)."""
    try:
        return inspect.getsourcefile(cls) or inspect.getfile(cls)
    except (TypeError, OSError):
        pass
    for value in vars(cls).values():
        function = getattr(value, "__func__", value)
        code = getattr(function, "__code__", None)
        if code is not None and not code.co_filename.startswith("<"):
            return code.co_filename
    return _hints.get(cls.__module__)


_hints: dict[str, str] = {}  # module name -> file, for modules run from a path (`__main__`, a fixture loaded by hand)


def remember_module(name: str, filename: str) -> None:
    _hints[name] = filename


def _class_node(cls) -> tuple[str, ast.ClassDef] | None:
    filename = _class_file(cls)
    if filename is None:
        return None
    tree = _tree(filename)
    if tree is None:
        return None
    names = [name for name in cls.__qualname__.split(".") if name != "<locals>"]
    found = None
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == names[-1]:
            found = node
            firstlineno = getattr(cls, "__firstlineno__", None)
            if firstlineno is None or node.lineno >= firstlineno:
                break
    return (filename, found) if found is not None else None


def class_site(cls) -> Site | None:
    """The line of `class Name`."""
    located = _class_node(cls)
    if located is None:
        return None
    filename, node = located
    return Site(spelled(filename), node.lineno, node.col_offset + 1)


def field_site(cls, name: str) -> Site | None:
    """The line that declares field `name` of `cls` or one of its bases (`name: T`,
    `name = ...` in the body, `self.name = ...` in a method), else its `class` line."""
    for owner in getattr(cls, "__mro__", (cls,)):
        if owner is object:
            break
        located = _class_node(owner)
        if located is None:
            continue
        filename, node = located
        line = _declaration(node, name)
        if line:
            return Site(spelled(filename), *line)
    return class_site(cls)


def _declaration(node: ast.ClassDef, name: str) -> tuple[int, int] | None:
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.target.id == name:
            return statement.lineno, statement.col_offset + 1
        if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets):
            return statement.lineno, statement.col_offset + 1
    for statement in ast.walk(node):
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Attribute) and part.attr == name and isinstance(part.value, ast.Name) and part.value.id == "self":
                        return statement.lineno, statement.col_offset + 1
    return None


def function_site(function) -> Site | None:
    """The `def` line of a function (or the line of a lambda)."""
    function = inspect.unwrap(function) if callable(function) else function
    code = getattr(getattr(function, "__func__", function), "__code__", None)
    if code is None or code.co_filename.startswith("<"):
        return None  # generated code (a dataclass's `__eq__`): no line of the user's to show
    line = linecache.getline(code.co_filename, code.co_firstlineno)
    return Site(spelled(code.co_filename), code.co_firstlineno, len(line) - len(line.lstrip()) + 1 if line.strip() else 1)


def user_class(cls) -> bool:
    """A class of the program's own code, not of Python or an installed library."""
    filename = _class_file(cls)
    if filename is None:
        return False
    return not _library(filename) and not filename.startswith((sys.base_prefix, sys.prefix))
