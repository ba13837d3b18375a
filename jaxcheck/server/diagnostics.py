"""Findings as LSP diagnostics: where, what, the rule's page, and the other
places the finding is about (where the value became static, where it changes)."""

from __future__ import annotations

import os
import re
from typing import Callable, Sequence

from lsprotocol import types
from pygls.uris import from_fs_path
from pygls.workspace.position_codec import PositionCodec

from jaxcheck.findings import Finding
from jaxcheck.loading.notebook import raw_line
from jaxcheck.report.formats import PAGE_URL
from jaxcheck.report.ranges import Ranges

SOURCE = "jaxcheck"
_COMMENT = re.compile(r"\s#[^'\"]*$")  # a trailing comment with no quote after its `#`


def message(finding: Finding) -> str:
    """What is wrong, then what to write instead: the code and the rule's page are shown beside it."""
    if not finding.fix:
        return finding.message
    return f"{finding.message.rstrip('.')}. {finding.fix.rstrip('.')}."


def diagnostic(
    finding: Finding,
    lines: Sequence[str],
    codec: PositionCodec,
    lines_of: Callable[[str], Sequence[str]],
    ranges: Ranges | None = None,
) -> types.Diagnostic:
    """The finding's diagnostic in the document of `lines` (`ranges`: the
    document's, for the extent of what the finding points at); `lines_of(path)`
    gives the text of another file its related places are in."""
    related = [_related(place, lines_of, codec) for place in finding.related]
    end = ranges.end(finding.line, finding.column) if ranges is not None and not finding.cell else None
    return types.Diagnostic(
        range=span(lines, finding.line, finding.column, codec, end),
        severity=types.DiagnosticSeverity.Warning,
        code=finding.code,
        code_description=types.CodeDescription(href=PAGE_URL.format(code=finding.code)),
        source=SOURCE,
        message=message(finding),
        related_information=related or None,
    )


def _related(place, lines_of: Callable[[str], Sequence[str]], codec: PositionCodec) -> types.DiagnosticRelatedInformation:
    """A related place; one in a notebook at the line of its JSON text that
    holds the cell's line (an editor shows a notebook named in a diagnostic
    as that text), the cell said in the message."""
    path = os.path.abspath(place.path)
    lines = lines_of(path)
    line, column, note = place.line, place.column, place.note
    if place.cell:
        line, column, note = raw_line("".join(lines), place.cell, place.line), 1, f"cell {place.cell}:{place.line}: {note}"
    return types.DiagnosticRelatedInformation(
        location=types.Location(uri=from_fs_path(path), range=span(lines, line, column, codec)),
        message=note,
    )


def span(
    lines: Sequence[str], line: int, column: int, codec: PositionCodec, end: tuple[int, int] | None = None
) -> types.Range:
    """From the 1-based line and column to `end` (1-based line, exclusive
    column), else to the end of the code on that line (its trailing comment
    left out): the expression, member, class or call at fault."""
    index = min(max(line - 1, 0), max(len(lines) - 1, 0))
    text = lines[index].rstrip("\r\n") if lines else ""
    start = min(max(column - 1, 0), len(text))
    if end is not None and 0 < end[0] <= len(lines) and (end[0], end[1]) > (line, column):
        end_index = end[0] - 1
        end_text = lines[end_index].rstrip("\r\n")
        stop = min(end[1] - 1, len(end_text))
        return types.Range(
            start=types.Position(line=index, character=codec.client_num_units(text[:start])),
            end=types.Position(line=end_index, character=codec.client_num_units(end_text[:stop])),
        )
    comment = _COMMENT.search(text)
    stop = len((text[: comment.start()] if comment else text).rstrip())
    if stop <= start:  # the column is in the comment, or past the code
        stop = max(len(text.rstrip()), start)
    return types.Range(
        start=types.Position(line=index, character=codec.client_num_units(text[:start])),
        end=types.Position(line=index, character=codec.client_num_units(text[:stop])),
    )
