"""`.gitignore`-style patterns, for `exclude` and `per-file-ignores`."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=None)
def _compile(pattern: str) -> tuple[re.Pattern[str], bool]:
    """A regex over '/'-separated relative paths, and whether it names directories only."""
    directory_only = pattern.endswith("/")
    pattern = pattern.strip("/") if directory_only else pattern
    anchored = "/" in pattern.lstrip("/") or pattern.startswith("/")
    pattern = pattern.lstrip("/")
    regex, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            regex.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            regex.append(".*")
            i += 2
            continue
        regex.append({"*": "[^/]*", "?": "[^/]"}.get(char) or re.escape(char))
        i += 1
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(prefix + "".join(regex)), directory_only


def matches(pattern: str, relative_path: str, is_dir: bool = False) -> bool:
    """Whether `relative_path` or a folder above it matches the pattern.

    Patterns with a slash are anchored at the config file's folder, others
    match a name at any depth; a trailing slash matches folders only.
    """
    regex, directory_only = _compile(pattern)
    parts = relative_path.split("/")
    candidates = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    if directory_only and not is_dir:
        candidates.pop()
    return any(regex.fullmatch(candidate) for candidate in candidates)


def matches_any(patterns, relative_path: str, is_dir: bool = False) -> bool:
    """Gitignore semantics: the last matching pattern wins, `!` re-includes."""
    result = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        if matches(pattern[1:] if negated else pattern, relative_path, is_dir):
            result = not negated
    return result
