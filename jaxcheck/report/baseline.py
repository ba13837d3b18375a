"""A baseline file: the findings a codebase had when it adopted jaxcheck, accepted so that only new ones fail.

A finding is known by its path (relative to the baseline's folder), its code,
its message with the places it names spelled without their lines and cells,
and the stripped text of the line it is reported on: lines (or cells)
inserted above it do not make it new, and a change to the reported line does. The baseline is a multiset: two equal findings in it
accept two, a third is new. The file is JSON, one entry per finding, sorted,
with no line numbers, so that a refresh after code moved changes nothing.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from typing import Iterable

from jaxcheck.findings import Finding
from jaxcheck.report.noqa import LINE_BREAK

VERSION = 1
_LINE_WORD = re.compile(r"\b(lines?) \d+\b")

Key = tuple[str, str, str, str]  # (path, code, message, source)


class BaselineError(Exception):
    """The baseline file cannot be used; the message says why."""


class Baseline:
    def __init__(self, file: str, texts: dict[str, str]) -> None:
        """`texts`: the text of each file with a finding, by its path as reported."""
        self.file = file
        self.root = os.path.dirname(os.path.abspath(file))
        self._texts = texts
        self._lines: dict[str, list[str]] = {}

    def exists(self) -> bool:
        return os.path.exists(self.file)

    def key(self, finding: Finding) -> Key:
        message = finding.message_with(
            lambda place: "line #" if place.path == finding.path else self._relative(place.path) + ":#"
        )
        message = _LINE_WORD.sub(r"\1 #", message)
        return self._relative(finding.path), finding.code, message, self._source(finding.path, finding.line)

    def load(self) -> Counter[Key]:
        try:
            with open(self.file, encoding="utf-8") as stream:
                document = json.load(stream)
            entries = document["findings"]
            if document.get("version") != VERSION or not isinstance(entries, list):
                raise ValueError(f"not a jaxcheck baseline of version {VERSION}")
            return Counter((entry["path"], entry["code"], entry["message"], entry["source"]) for entry in entries)
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise BaselineError(f"cannot read the baseline {self.file}: {error}") from None

    def write(self, keys: Iterable[Key]) -> int:
        """Write the keys, sorted; how many."""
        entries = [
            {"path": path, "code": code, "message": message, "source": source}
            for path, code, message, source in sorted(keys)
        ]
        document = {
            "about": "jaxcheck baseline: these findings are accepted; `jaxcheck check --baseline` reports only others",
            "version": VERSION,
            "findings": entries,
        }
        try:
            with open(self.file, "w", encoding="utf-8", newline="\n") as stream:
                json.dump(document, stream, indent=2, ensure_ascii=False)
                stream.write("\n")
        except OSError as error:
            raise BaselineError(f"cannot write the baseline {self.file}: {error.strerror or error}") from None
        return len(entries)

    def covers(self, key: Key, checked: set[str]) -> bool:
        """Whether an entry is about a file this run checked (else it is neither
        matched nor stale: the run did not look)."""
        return os.path.normpath(os.path.join(self.root, key[0])) in checked

    def _relative(self, path: str) -> str:
        """A path as the baseline spells it: relative to its folder, with '/'."""
        return os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")

    def _source(self, path: str, line: int) -> str:
        if path not in self._lines:
            self._lines[path] = LINE_BREAK.split(self._texts.get(path, ""))
        lines = self._lines[path]
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def split(baseline: Baseline, findings: list[Finding], accepted: Counter[Key]) -> tuple[list[Finding], Counter[Key]]:
    """The findings the baseline does not accept, and its entries no finding
    matched; each entry accepts one finding."""
    left = Counter(accepted)
    new = []
    for finding in findings:
        key = baseline.key(finding)
        if left[key] > 0:
            left[key] -= 1
        else:
            new.append(finding)
    return new, left
