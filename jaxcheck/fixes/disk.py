"""The one way fixes read and write a file: a module's text as it is, a
notebook's code cells as the Python jaxcheck judged (joined), written back
into their cells.

A file is never rewritten in place: the new bytes go to a temporary file
beside it, which then replaces it in one step, so that a full disk, a file
size limit or a kill leaves the original whole. A file that no longer holds
the bytes the change was made from was edited meanwhile, and a path that is a
symbolic link may lead anywhere: both are left alone.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tempfile
import tokenize
from dataclasses import dataclass, replace
from typing import Iterable

from jaxcheck.findings import Finding
from jaxcheck.loading.notebook import is_notebook, notebook_text, read_notebook, with_python
from jaxcheck.loading.source import SourceError, decode_source, read_bytes, read_source

_BOM = "\ufeff"


class LeftAlone(Exception):
    """The file was not rewritten, on purpose: the message says why (a note, not an error)."""


@dataclass(frozen=True)
class FixableFile:
    """A file as a fix reads it: its bytes, and the text its findings point into."""

    data: bytes
    text: str


def read_fixable(path: str) -> str | None:
    """The text a file's findings point into, as jaxcheck read it; None when it cannot be read."""
    try:
        return read_notebook(notebook_text(path)).python if is_notebook(path) else read_source(path)
    except SourceError:
        return None


def read_fixable_file(path: str) -> FixableFile | None:
    """The file's bytes and the text its findings point into, read once, so
    that the write can tell whether the file changed since; None when it
    cannot be read."""
    try:
        if is_notebook(path):
            raw = notebook_text(path, keep_bom=True)
            return FixableFile(raw.encode("utf-8"), read_notebook(raw.removeprefix(_BOM)).python)
        data = read_bytes(path)
        return FixableFile(data, decode_source(data))
    except SourceError:
        return None


def in_text(path: str, findings: Iterable[Finding]) -> list[Finding]:
    """The findings of one file at their lines of `read_fixable`'s text: a
    notebook's finding says its cell and the line in it, the fix needs the
    line of the joined cells."""
    findings = list(findings)
    if not any(finding.cell for finding in findings):
        return findings
    try:
        notebook = read_notebook(notebook_text(path))
    except SourceError:
        return []
    return [replace(finding, line=notebook.line_of(finding.cell, finding.line), cell=0) for finding in findings]


def write_fixed(path: str, text: str, read: bytes) -> None:
    """Write a fixed file in the encoding it had (BOM and coding cookie kept);
    the text keeps its own line endings. A notebook gets the fixed Python back
    in its cells, all else kept. Every fixed file is written here.

    `read` is the file's bytes the fixes were made from (`read_fixable_file`).
    `LeftAlone` says the file was not written on purpose, `OSError` that the
    write failed; either way the file is as it was."""
    if is_notebook(path):
        raw = read.decode("utf-8")
        data = with_python(raw, text).encode("utf-8")
    else:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(read).readline)
        except SyntaxError:
            encoding = "utf-8"
        data = text.encode(encoding)
    replace_file(path, data, read)


def replace_file(path: str, data: bytes, read: bytes) -> None:
    """Put `data` in place of the file at `path`, which must still hold `read`.

    The data goes to a temporary file in the same folder, with the file's
    permissions, which then replaces the file in one step: a write that fails
    removes it and raises `OSError`, and the file keeps every byte it had. A
    file that no longer holds `read` was edited since it was read, and a path
    that is a symbolic link would write wherever the link leads: both raise
    `LeftAlone`, with nothing written."""
    if os.path.islink(path):
        raise LeftAlone("is a symbolic link")
    try:
        now = read_bytes(path, limit=len(read), follow_links=False)
    except SourceError:
        now = None
    if now != read:
        raise LeftAlone("changed since it was read")
    mode = stat.S_IMODE(os.stat(path).st_mode)
    folder, name = os.path.split(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".jaxcheck", dir=folder)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


