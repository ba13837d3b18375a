"""Where a file sits in its project: its dotted module name."""

from __future__ import annotations

import os


def module_name(path: str) -> tuple[str, bool]:
    """The module a file defines, climbing through packages, and whether it is a package."""
    path = os.path.abspath(path)
    folder, filename = os.path.split(path)
    stem = filename.rsplit(".", 1)[0] if "." in filename else filename
    is_package = stem == "__init__"
    parts = [] if is_package else [stem]
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        folder, package = os.path.split(folder)
        if not package.isidentifier():
            break
        parts.append(package)
    if not parts:
        parts.append(stem)
    return ".".join(reversed(parts)), is_package
