"""The one way fixes read and write a file, so that a file kind with a text
of its own (a notebook's cells) can be routed through here."""

from __future__ import annotations

import io
import tokenize

from jaxcheck.loading.source import SourceError, read_bytes, read_source


def read_fixable(path: str) -> str | None:
    """The text a file's findings point into, as jaxcheck read it; None when it cannot be read."""
    try:
        return read_source(path)
    except SourceError:
        return None


def write_fixed(path: str, text: str) -> None:
    """Write a fixed file in the encoding it had (BOM and coding cookie kept);
    the text keeps its own line endings. Every fixed file is written here."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(read_bytes(path)).readline)
    except (SourceError, SyntaxError):
        encoding = "utf-8"
    with open(path, "wb") as file:
        file.write(text.encode(encoding))
