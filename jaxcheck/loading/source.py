"""Reading a file's text the way Python would: BOM and coding cookie honoured."""

from __future__ import annotations

import io
import tokenize


class SourceError(Exception):
    """The file cannot be read or decoded; the message says why."""


def decode_source(data: bytes) -> str:
    """Bytes to text by the BOM or PEP 263 coding cookie (UTF-8 otherwise), line endings kept."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise SourceError(f"cannot decode: {error}") from None
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        raise SourceError(f"cannot decode as {encoding}: {error}") from None


def read_source(path: str) -> str:
    """The decoded text of a file; `SourceError` says why when it cannot be had."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise SourceError(f"cannot read: {error.strerror or error}") from None
    return decode_source(data)
