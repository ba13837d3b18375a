"""When jaxcheck itself fails on a file: the finding that says so, and room to recurse.

A bug of ours, or code nested past what the interpreter allows, costs the
user that one file (a JAX000 naming where jaxcheck failed), never the run.
"""

from __future__ import annotations

import os
import sys
import traceback
from contextlib import contextmanager

from jaxcheck.findings import BAD_INPUT, Finding, reason

_RECURSION_LIMIT = 20_000


def described(error: BaseException) -> str:
    """The error and the line of jaxcheck it came from, in one line:
    `KeyError: 'x' at model.py:12`."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [frame for frame in frames if "jaxcheck" in frame.filename] or frames
    where = f" at {os.path.basename(ours[-1].filename)}:{ours[-1].lineno}" if ours else ""
    return f"{type(error).__name__}: {reason(error)}{where}"


def internal_error(path: str, error: Exception) -> Finding:
    return Finding(
        path, 1, 1, BAD_INPUT, f"jaxcheck failed on this file ({described(error)}); please report it. Other files were checked."
    )


RULE_FAILED = "jaxcheck failed while judging the project"


def rule_error(path: str, error: Exception) -> Finding:
    """A rule that failed on the whole project, reported once: in the first
    file the run checks, wherever the model held it."""
    return Finding(path, 1, 1, BAD_INPUT, f"{RULE_FAILED} ({described(error)}); please report it. The other rules were run.")


@contextmanager
def deep_recursion():
    """LibCST and the extractor recurse once or twice per nesting level: a long
    `a + b + ...` chain that Python accepts needs more than the default 1000
    frames. From Python 3.11 on, Python-to-Python calls do not use the C stack,
    so a higher limit is safe there."""
    old = sys.getrecursionlimit()
    if sys.version_info >= (3, 11):
        sys.setrecursionlimit(max(old, _RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)
