"""A progress line for long cold runs: `jaxcheck: parsed 120/930 files`,
rewritten in place on a terminal's standard error.

Parsing is what a cold run spends its time on (8.4 s of 9.9 s on brax), so
that is what is counted; a warm run parses nothing and shows nothing. The
line appears only once the run has taken a moment, so a quick run never
flickers, and is erased before anything else is printed.
"""

from __future__ import annotations

import os
import time
from typing import TextIO


class Progress:
    delay = 0.5  # seconds before the line first appears
    interval = 0.1  # seconds between rewrites at most

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started = time.monotonic()
        self.written = 0.0
        self.shown = False
        self.parsed = 0
        self.total = 0

    def __call__(self, parsed: int, pending: int) -> None:
        """`parsed` more files are parsed; `pending` more are to be."""
        self.parsed += parsed
        self.total += pending
        now = time.monotonic()
        if now - self.started < self.delay or (self.shown and now - self.written < self.interval):
            return
        self.written, self.shown = now, True
        self.stream.write(f"\rjaxcheck: parsed {min(self.parsed, self.total)}/{self.total} files\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        """Erase the line, so that what follows starts on a clean one."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def progress_on(stream: TextIO) -> Progress | None:
    """A progress line on `stream` if it is a terminal that can rewrite a line, else None."""
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        interactive = False
    return Progress(stream) if interactive and os.environ.get("TERM") != "dumb" else None
