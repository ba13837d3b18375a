"""Reporters: findings as a user reads them (`concise`, flake8's one line;
`full`, with the source around them) and as tools read them (JSON per SPEC 4,
SARIF 2.1.0 for code scanning, GitHub workflow commands).

Every one-line message ends with its rule's name, `[mutable-static]`, which
`jaxcheck rule` takes as well as the code.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from urllib.parse import quote
from typing import Iterable, TextIO

from jaxcheck import __version__
from jaxcheck.findings import Finding, shown
from jaxcheck.loading.source import SourceError, read_source
from jaxcheck.report.ranges import Ranges, end_of_code
from jaxcheck.rules import CODES

REPOSITORY = "https://github.com/jaxcheck/jaxcheck"
PAGE_URL = REPOSITORY + "/blob/main/rules/{code}.md"
FORMATS = ("concise", "full", "json", "sarif", "github")
HUMAN_FORMATS = ("concise", "full")  # the ones colour and the summary are for

_LINE_BREAK = re.compile(r"\r\n?|\n")  # the line breaks LibCST counts, as the engine does
_CONTEXT = 2  # source lines shown before and after a finding's line in `full`
_TAB = 4  # columns a tab takes in a snippet
# ANSI styles, as ruff colours its output.
_BOLD, _RED, _BLUE, _CYAN = "1", "1;31", "1;34", "36"


def message_of(finding: Finding) -> str:
    """The message on one line: what is wrong and where it became static, the
    fix, and the rule's name (`jaxcheck rule` takes it, for the why)."""
    text = f"{finding.message}. {finding.fix}." if finding.fix else finding.message
    name = _name(finding.code)
    return f"{text} [{name}]" if name else text


def _name(code: str) -> str:
    return CODES.get(code, ("",))[0]


class Sources:
    """The files findings are in, each read once: the lines for the snippets
    of `full`, and the ranges of findings for `full`, `json` and `sarif`.
    `texts` are files given as text (standard input), by the path findings spell."""

    def __init__(self, texts: dict[str, str] | None = None) -> None:
        self._texts: dict[str, str | None] = dict(texts or {})
        self._lines: dict[str, list[str] | None] = {}
        self._ranges: dict[str, Ranges] = {}

    def _text(self, path: str) -> str | None:
        if path not in self._texts:
            try:
                self._texts[path] = read_source(path)
            except SourceError:
                self._texts[path] = None
        return self._texts[path]

    def line(self, path: str, number: int) -> str | None:
        """Line `number` (1-based) of the file, or None when the file cannot be read again or is shorter."""
        if path not in self._lines:
            text = self._text(path)
            self._lines[path] = None if text is None else _LINE_BREAK.split(text)
        lines = self._lines[path]
        return lines[number - 1] if lines is not None and 0 < number <= len(lines) else None

    def end(self, finding: Finding) -> tuple[int, int]:
        """Where the finding's range ends (1-based line, 1-based exclusive column):
        the expression it points at; in a notebook, its start (the place is a cell's)."""
        if finding.cell or _is_notebook(finding.path):
            return finding.line, finding.column
        text = self._text(finding.path)
        if text is None:
            return finding.line, finding.column
        ranges = self._ranges.get(finding.path)
        if ranges is None:
            ranges = self._ranges[finding.path] = Ranges(text)
        return ranges.end(finding.line, finding.column)


def colour_wanted(choice: str, out: TextIO) -> bool:
    """`--color`: always or never as asked; under auto, never when NO_COLOR is
    set, always when FORCE_COLOR is, else only on a terminal."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def _paint(text: str, style: str, colour: bool) -> str:
    return f"\x1b[{style}m{text}\x1b[0m" if colour and text else text


def _header(finding: Finding, message: str, colour: bool) -> str:
    colon = _paint(":", _CYAN, colour)
    return (
        f"{_paint(shown(finding.path), _BOLD, colour)}{colon}{position_of(finding).replace(':', colon)}{colon} "
        f"{_paint(finding.code, _RED, colour)} {shown(message)}"
    )


def _where(place) -> str:
    """`line:column` of a related place, or `cell 3:8:7` in a notebook, as `position_of` spells a finding's."""
    where = f"{place.line}:{place.column}"
    return f"cell {place.cell}:{where}" if place.cell else where


def position_of(finding: Finding) -> str:
    """Where a finding is, as ruff spells it: `line:column`, or `cell 3:2:5` in a notebook."""
    where = f"{finding.line}:{finding.column}"
    return f"cell {finding.cell}:{where}" if finding.cell else where


def in_file(finding: Finding) -> tuple[int, int, str]:
    """Line, column and message for the formats that point at a line of the
    file. A notebook is JSON, none of whose lines is a cell's line: its
    findings point at the file's start and say the cell in the message, as ruff's do."""
    if not finding.cell:
        return finding.line, finding.column, message_of(finding)
    return 1, 1, f"{position_of(finding)}: {message_of(finding)}"


def write_concise(findings: Iterable[Finding], out: TextIO, colour: bool = False) -> None:
    """flake8's format, `path:line:col: CODE message`, one line each."""
    for finding in findings:
        out.write(_header(finding, message_of(finding), colour) + "\n")


def write_full(findings: Iterable[Finding], out: TextIO, sources: Sources | None = None, colour: bool = False) -> None:
    """ruff's `full`: each finding's line, the source around it with carets
    under what is reported, the related places with their line, and the fix."""
    sources = sources or Sources()
    for finding in findings:
        name = _name(finding.code)
        out.write(_header(finding, f"{finding.message} [{name}]" if name else finding.message, colour) + "\n")
        numbers = [] if finding.cell else _context(sources, finding.path, finding.line)
        width = len(str(max([*numbers, *(place.line for place in finding.related)], default=1)))
        snippet = _Snippet(out, width, colour)
        if numbers:
            snippet.rule()
            for number in numbers:
                line = sources.line(finding.path, number)
                snippet.line(number, line)
                if number == finding.line:
                    end_line, end = sources.end(finding)
                    snippet.underline(line, finding.column, "^", _RED, end if end_line == number else None)
            snippet.rule()
        for place in finding.related:
            out.write(f"{' ' * width}{_paint(':::', _BLUE, colour)} {shown(place.path)}:{_where(place)}: {place.note}\n")
            line = None if _is_notebook(place.path) else sources.line(place.path, place.line)
            if line is not None:
                snippet.rule()
                snippet.line(place.line, line)
                snippet.underline(line, place.column, "-", _BLUE)
                snippet.rule()
        if finding.fix:
            out.write(f"{_paint('help', _CYAN, colour)}: {finding.fix}\n")
        out.write("\n")


class _Snippet:
    """Source lines behind a gutter of line numbers, as ruff and rustc show them."""

    def __init__(self, out: TextIO, width: int, colour: bool) -> None:
        self.out, self.width, self.colour = out, width, colour
        self.bar = _paint("|", _BLUE, colour)

    def rule(self) -> None:
        self.out.write(f"{' ' * self.width} {self.bar}\n")

    def line(self, number: int, text: str) -> None:
        shown = f"{_paint(str(number).rjust(self.width), _BLUE, self.colour)} {self.bar} {text.expandtabs(_TAB)}"
        self.out.write(shown.rstrip() + "\n")

    def underline(self, text: str, column: int, mark: str, style: str, end: int | None = None) -> None:
        """Marks under the reported code of `text`, from `column` to `end` (exclusive;
        by default the end of the line's code), as the line is shown (tabs expanded)."""
        start = len(text[: column - 1].expandtabs(_TAB))
        end = len(text[: (end or end_of_code(text, column)) - 1].expandtabs(_TAB))
        marks = _paint(mark * max(end - start, 1), style, self.colour)
        self.out.write(f"{' ' * self.width} {self.bar} {' ' * start}{marks}\n")


def _context(sources: Sources, path: str, number: int) -> list[int]:
    """The numbers of the lines shown around line `number`: a few on each side,
    blank ones at the edges left out; none when the line cannot be read."""
    if sources.line(path, number) is None:
        return []
    numbers = [
        other
        for other in range(max(1, number - _CONTEXT), number + _CONTEXT + 1)
        if sources.line(path, other) is not None
    ]
    while numbers[0] != number and not sources.line(path, numbers[0]).strip():
        numbers.pop(0)
    while numbers[-1] != number and not sources.line(path, numbers[-1]).strip():
        numbers.pop()
    return numbers


def write_json(findings: Iterable[Finding], out: TextIO, sources: Sources | None = None) -> None:
    """SPEC 4's array, with each finding's rule name and page, fix title, end and related places.

    `message` stays the one-line form (message, fix and rule name) that the
    text, GitHub and flake8 outputs show, so consumers of earlier releases
    read the same text; `fix` gives the fix title apart.
    """
    sources = sources or Sources()
    records = [
        {
            "path": finding.path,
            "line": finding.line,
            "column": finding.column,
            "end_line": sources.end(finding)[0],
            "end_column": sources.end(finding)[1],
            "code": finding.code,
            "name": _name(finding.code) or None,
            "message": message_of(finding),
            "fix": finding.fix or None,
            "url": PAGE_URL.format(code=finding.code),
            "related": [
                {"path": place.path, "line": place.line, "column": place.column, "note": place.note,
                 **({"cell": place.cell} if place.cell else {})}
                for place in finding.related
            ],
            **({"cell": finding.cell} if finding.cell else {}),
        }
        for finding in findings
    ]
    json.dump(records, out, indent=2)
    out.write("\n")


def write_github(findings: Iterable[Finding], out: TextIO) -> None:
    """GitHub Actions workflow commands: each finding becomes an annotation on its line."""
    for finding in findings:
        line, column, message = in_file(finding)
        properties = {
            "file": shown(finding.path),
            "line": line,
            "col": column,
            "title": f"{finding.code} {CODES.get(finding.code, ('',))[0]}".strip(),
        }
        joined = ",".join(f"{key}={_escape(str(value), True)}" for key, value in properties.items())
        out.write(f"::error {joined}::{_escape(message, False)}\n")  # a message's own line breaks are escaped there


def _escape(text: str, in_property: bool) -> str:
    """As the workflow-command parser unescapes it (actions/toolkit's `escapeData`/`escapeProperty`)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if in_property else text


def write_sarif(findings: Iterable[Finding], out: TextIO, sources: Sources | None = None) -> None:
    """One SARIF 2.1.0 run: every rule with its page as help, and every finding
    with its end and related places. The fix title is in the message (as in
    every one-line output): a SARIF `fix` must carry the edits themselves."""
    from jaxcheck.report.pages import rule_page

    sources = sources or Sources()
    codes = list(CODES)
    rules = []
    for code, (name, summary) in CODES.items():
        page = rule_page(code) or summary
        rules.append(
            {
                "id": code,
                "name": "".join(part.capitalize() for part in name.split("-")),
                "shortDescription": {"text": summary},
                "fullDescription": {"text": summary},
                "helpUri": PAGE_URL.format(code=code),
                "help": {"text": page, "markdown": page},
                "defaultConfiguration": {"level": "error"},
                "properties": {"tags": ["jax", name]},
            }
        )
    results = []
    for finding in findings:
        result = {
            "ruleId": finding.code,
            "ruleIndex": codes.index(finding.code) if finding.code in CODES else -1,
            "level": "error",
            "message": {"text": in_file(finding)[2]},
            "locations": [{"physicalLocation": _physical(sources, finding.path, *in_file(finding)[:2], sources.end(finding))}],
        }
        if finding.related:
            result["relatedLocations"] = [
                {
                    "id": number,
                    "physicalLocation": _physical(
                        sources, place.path, *((1, 1) if _is_notebook(place.path) else (place.line, place.column))
                    ),
                    "message": {"text": f"cell {place.cell}:{place.line}: {place.note}" if place.cell else place.note},
                }
                for number, place in enumerate(finding.related)
            ]
        results.append(result)
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jaxcheck",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": REPOSITORY,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    json.dump(document, out, indent=2)
    out.write("\n")


def _physical(sources: Sources, path: str, line: int, column: int, end: tuple[int, int] | None = None) -> dict:
    """A SARIF place: the range `end` gives (the finding's), else the rest of the line's code (a related place)."""
    if _is_notebook(path):  # the place is the file's start: the message says the cell
        return {"artifactLocation": {"uri": _uri(path)}, "region": {"startLine": line, "startColumn": column}}
    end_line, end_column = end or (line, end_of_code(sources.line(path, line), column))
    return {
        "artifactLocation": {"uri": _uri(path)},
        "region": {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column},
    }


def _is_notebook(path: str) -> bool:
    """A place in a notebook is a cell's line, not the file's: its note or message names the cell."""
    return path.endswith(".ipynb")


def _uri(path: str) -> str:
    """A relative URI reference, as code scanning matches it to the repository's files."""
    if os.path.isabs(path):
        return Path(path).as_uri() if os.name == "nt" else "file://" + quote(os.fsencode(path))
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return quote(os.fsencode(path))  # a name's bytes, UTF-8 or not, percent-encoded


def write_statistics(findings: Iterable[Finding], out: TextIO) -> None:
    """flake8's `--statistics`: how many findings per code, with the rule's name."""
    counts = Counter(finding.code for finding in findings)
    for code in sorted(counts):
        out.write(f"{counts[code]:<5} {code} {CODES.get(code, ('',))[0]}\n")


def write_findings(
    output_format: str, findings: list[Finding], out: TextIO, sources: Sources | None = None, colour: bool = False
) -> None:
    """The findings in one of `FORMATS`; colour only for the ones people read."""
    if output_format == "concise":
        write_concise(findings, out, colour)
    elif output_format == "full":
        write_full(findings, out, sources, colour)
    elif output_format == "json":
        write_json(findings, out, sources)
    elif output_format == "sarif":
        write_sarif(findings, out, sources)
    else:
        write_github(findings, out)
