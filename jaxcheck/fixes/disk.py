"""The one way fixes read and write a file: a module's text as it is, a
notebook's code cells as the Python jaxcheck judged (joined), written back
into their cells."""

from __future__ import annotations

import io
import tokenize
from dataclasses import replace
from typing import Iterable

from jaxcheck.findings import Finding
from jaxcheck.loading.notebook import is_notebook, notebook_text, read_notebook, with_python
from jaxcheck.loading.source import SourceError, read_bytes, read_source


def read_fixable(path: str) -> str | None:
    """The text a file's findings point into, as jaxcheck read it; None when it cannot be read."""
    try:
        return read_notebook(notebook_text(path)).python if is_notebook(path) else read_source(path)
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


def write_fixed(path: str, text: str) -> None:
    """Write a fixed file in the encoding it had (BOM and coding cookie kept);
    the text keeps its own line endings. A notebook gets the fixed Python back
    in its cells, all else kept. Every fixed file is written here."""
    if is_notebook(path):
        data = with_python(notebook_text(path, keep_bom=True), text).encode("utf-8")
    else:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(read_bytes(path)).readline)
        except (SourceError, SyntaxError):
            encoding = "utf-8"
        data = text.encode(encoding)
    with open(path, "wb") as file:
        file.write(data)
