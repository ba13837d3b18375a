"""`.gitignore`-style patterns, for `exclude` and `per-file-ignores`.

Patterns with a slash (other than a trailing one) are anchored at the config
file's folder, others match a name at any depth; a trailing slash matches
folders only; `*`, `?`, `[...]` and `**` work as in git; `!` re-includes, and
`\\` escapes a special character.
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=None)
def _compile(pattern: str) -> tuple[re.Pattern[str], bool]:
    """A regex over '/'-separated relative paths, and whether it names folders only."""
    directory_only = pattern.endswith("/") and not pattern.endswith("\\/")
    if directory_only:
        pattern = pattern.rstrip("/")
    anchored = "/" in pattern
    pattern = pattern.lstrip("/")
    regex, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            regex.append(re.escape(pattern[i + 1]))
            i += 2
        elif pattern.startswith("**/", i):
            regex.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            regex.append(".*")
            i += 2
        elif char == "*":
            regex.append("[^/]*")
            i += 1
        elif char == "?":
            regex.append("[^/]")
            i += 1
        elif char == "[" and "]" in pattern[i + 2 :]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1 : end]
            negated = body[:1] in ("!", "^")
            body = body[1:] if negated else body
            regex.append("[" + ("^" if negated else "") + body.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            regex.append(re.escape(char))
            i += 1
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(prefix + "".join(regex)), directory_only


def _matches(pattern: str, relative_path: str, is_dir: bool) -> bool:
    regex, directory_only = _compile(pattern)
    if directory_only and not is_dir:
        return False
    return regex.fullmatch(relative_path) is not None


def _last_match(patterns, relative_path: str, is_dir: bool) -> bool:
    excluded = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        if _matches(pattern[1:] if negated else pattern, relative_path, is_dir):
            excluded = not negated
    return excluded


def matches_any(patterns, relative_path: str, is_dir: bool = False) -> bool:
    """Whether `relative_path` is matched, as git decides what it ignores.

    The last matching pattern wins, and nothing below a matched folder can be
    re-included.
    """
    parts = relative_path.split("/")
    for end in range(1, len(parts)):
        if _last_match(patterns, "/".join(parts[:end]), True):
            return True
    return _last_match(patterns, relative_path, is_dir)
