"""Fixing files on disk: each file's findings fixed in its text, shown as a diff or written back."""

from __future__ import annotations

import difflib
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from jaxcheck.findings import Finding
from jaxcheck.fixes.disk import in_text, read_fixable_file
from jaxcheck.fixes.fixing import FIXERS, fix_for, fix_source


@dataclass(frozen=True)
class FileFixes:
    """One file's fixes: its text before and after, the findings fixed, and
    the bytes the fixes were made from (the write checks the file still holds them)."""

    path: str  # as the findings spell it
    before: str
    after: str
    applied: tuple[Finding, ...]
    read: bytes

    def diff(self) -> str:
        """A unified diff, as `ruff --diff` prints it."""
        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True),
            self.after.splitlines(keepends=True),
            fromfile=self.path,
            tofile=self.path,
        )
        return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)


def fix_files(findings: Iterable[Finding], unsafe: bool) -> list[FileFixes]:
    """The fixes of every file with a fixable finding (its path is where the
    change belongs: a class is reported in its own file); nothing is written."""
    by_path: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        if finding.code in FIXERS:
            by_path[finding.path].append(finding)
    fixes = []
    for path, found in sorted(by_path.items()):
        file = read_fixable_file(path)
        if file is None:
            continue
        fixed = fix_source(file.text, in_text(path, found), unsafe)
        if fixed.applied:
            fixes.append(FileFixes(path, file.text, fixed.text, fixed.applied, file.data))
    return fixes


def hidden_unsafe(findings: Iterable[Finding]) -> int:
    """How many of the findings have an unsafe fix only: `--unsafe-fixes` would apply them."""
    count = 0
    for finding in findings:
        kind = fix_for(finding) if finding.code in FIXERS else None
        count += kind is not None and not kind.safe
    return count
