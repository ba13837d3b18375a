"""`# noqa` comments, read exactly as flake8 reads them."""

from __future__ import annotations

import re

# flake8's own pattern (flake8/defaults.py).
_NOQA = re.compile(
    r"# noqa"
    r"(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?",
    re.IGNORECASE,
)
_SEPARATORS = re.compile(r"[,\s]+")


def is_suppressed(code: str, line_text: str) -> bool:
    match = _NOQA.search(line_text)
    if match is None:
        return False
    codes = match.group("codes")
    if not codes:
        return True
    return any(code.startswith(given) for given in _SEPARATORS.split(codes) if given)


def with_noqa(code: str, line_text: str) -> str | None:
    """The line (without its line break) with `code` added to its `# noqa: ...`
    codes, or given a `# noqa: CODE` comment of its own; None when the line
    already suppresses it."""
    if is_suppressed(code, line_text):
        return None
    match = _NOQA.search(line_text)
    if match is None:
        return f"{line_text.rstrip()}  # noqa: {code}"
    end = match.start("codes") + len(match.group("codes").rstrip(", \t"))
    return f"{line_text[:end]}, {code}{line_text[end:]}"
