"""Reading a file's text the way Python would: BOM and coding cookie honoured.

Only regular files are read, and only up to a size no source file reaches: a
FIFO named `*.py` would block the run forever, and a link to `/dev/zero`
would fill memory.
"""

from __future__ import annotations

import io
import os
import stat
import tokenize

from jaxcheck.findings import reason

MAX_BYTES = 16 * 2**20  # far above any hand-written module; more is generated data or a device
_NOT_REGULAR = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def kind_of(mode: int) -> str:
    """What a file that is not a regular one is, for a message: "a FIFO", "a folder"."""
    return next((name for test, name in _NOT_REGULAR if test(mode)), "not a file")


class SourceError(Exception):
    """The file cannot be read or decoded; the message says why."""


def decode_source(data: bytes) -> str:
    """Bytes to text by the BOM or PEP 263 coding cookie (UTF-8 otherwise), line endings kept."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise SourceError(f"cannot decode: {reason(error)}") from None
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        raise SourceError(f"cannot decode as {encoding}: {reason(error)}") from None


def read_source(path: str) -> str:
    """The decoded text of a file; `SourceError` says why when it cannot be had."""
    return decode_source(read_bytes(path))


def read_bytes(path: str, limit: int = MAX_BYTES, follow_links: bool = True) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. It is opened
    without blocking and checked before it is read, so that a FIFO, a device
    or a huge file gives a `SourceError` instead of a hang. Without
    `follow_links`, a link is refused (where the platform can tell)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise SourceError(f"cannot read: {error.strerror or reason(error)}") from None
    try:
        mode = os.fstat(descriptor).st_mode
        kind = None if stat.S_ISREG(mode) else kind_of(mode)
        if kind is not None:
            raise SourceError(f"cannot read: {kind}, not a regular file")
        chunks, size = [], 0
        while size <= limit:  # os.read: no buffered file object over a descriptor checked already
            chunk = os.read(descriptor, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    except OSError as error:
        raise SourceError(f"cannot read: {error.strerror or reason(error)}") from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        size = f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit} bytes"
        raise SourceError(f"cannot read: larger than {size}, too large for a source file")
    return data
