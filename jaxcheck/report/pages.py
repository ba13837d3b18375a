"""The rule reference pages printed by `jaxcheck rule CODE`."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # jaxcheck/
# Installed from a wheel: jaxcheck/pages/; in a checkout: rules/ beside the package.
_FOLDERS = (_PACKAGE / "pages", _PACKAGE.parent / "rules")


def rule_page(code: str) -> str | None:
    for folder in _FOLDERS:
        page = folder / f"{code}.md"
        if page.is_file():
            return page.read_text(encoding="utf-8")
    return None
