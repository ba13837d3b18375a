"""`# noqa` comments in `jaxcheck check`: read, judged (JAX001) and written (`--add-noqa`).

flake8 reads `# noqa: CODES` with a pattern that takes only codes such as
`E501`: `# noqa: mutable-static` does not match its list, so flake8 takes it
for a bare `# noqa` and hides every code on the line. The command reads what
the comment says instead: codes, prefixes and rule names, separated by commas
or spaces, up to the first word that is none of them (free text may follow).
A `# noqa:` followed by no such entry suppresses nothing, as in ruff.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import defaultdict
from dataclasses import dataclass

from jaxcheck.findings import BAD_INPUT, Finding
from jaxcheck.rules import CODES, NAMES, UNUSED_NOQA, code_of

LINE_BREAK = re.compile(r"\r\n?|\n")  # the line breaks LibCST and flake8 count
_NOQA = re.compile(r"# noqa", re.IGNORECASE)  # flake8's start, found anywhere on the line
# A code (`JAX101`, and `jax101`, which flake8's pattern takes but never matches), a
# prefix (`JAX`), or a rule name (`mutable-static`), ended by a separator or the line's end.
_ENTRY = r"([A-Za-z]+[0-9]+|[A-Z]+|[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+)(?=[\s,#]|$)"
_FIRST = re.compile(r"\s*" + _ENTRY)
_NEXT = re.compile(r"[\s,]+" + _ENTRY)
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+")


@dataclass(frozen=True)
class Directive:
    start: int  # offset of `#` in the line
    entries: tuple[str, ...] | None  # as written; None for a bare `# noqa`
    end: int  # offset just after the last entry (after `:` when there is none): where entries are added


def directive(line: str) -> Directive | None:
    """The `# noqa` comment of a line, None when it has none."""
    match = _NOQA.search(line)
    if match is None:
        return None
    position = match.end()
    if not line.startswith(":", position):
        return Directive(match.start(), None, position)
    position += 1
    entries, end, pattern = [], position, _FIRST
    while (entry := pattern.match(line, end)) is not None:
        entries.append(entry.group(1))
        end, pattern = entry.end(), _NEXT
    return Directive(match.start(), tuple(entries), end)


def suppresses(found: Directive | None, code: str) -> bool:
    """Whether the comment silences a finding of `code`: a bare `# noqa` all,
    else the codes, prefixes and rule names it lists. JAX001 only by its own
    code or name, so that `# noqa: JAX` cannot hide that it is unused itself."""
    if found is None:
        return False
    if found.entries is None:
        return True
    resolved = [code_of(entry) for entry in found.entries]
    if code == UNUSED_NOQA:
        return code in resolved
    return any(code.startswith(given) for given in resolved)


def is_suppressed(code: str, line_text: str) -> bool:
    return suppresses(directive(line_text), code)


def unused_noqa(path: str, text: str, findings: list[Finding]) -> list[Finding]:
    """JAX001: the `# noqa` comments of a file naming JAX entries that suppress
    nothing on their line, judged against every finding of the file whatever
    the options of the run (`findings`: unfiltered)."""
    if "noqa" not in text.lower() or any(finding.code == BAD_INPUT for finding in findings):
        return []
    codes_on = defaultdict(set)
    for finding in findings:
        codes_on[finding.line].add(finding.code)
    judged = []
    for number, line in enumerate(LINE_BREAK.split(text), 1):
        found = directive(line)
        if found is None or not found.entries:
            continue
        unused, unknown = [], []
        for entry in found.entries:
            code = code_of(entry)
            if _NAME.fullmatch(entry) and entry.lower() not in NAMES:
                unknown.append(entry)
            elif not code.upper().startswith("JAX"):
                continue  # another tool's code
            elif code != code.upper() or not any(known.startswith(code) for known in CODES):
                unknown.append(entry)
            elif code != UNUSED_NOQA and (
                code == BAD_INPUT or not any(c.startswith(code) and c != BAD_INPUT for c in codes_on[number])
            ):
                unused.append(entry)
        if unused or unknown:
            parts = [f"{kind}: {', '.join(entries)}" for kind, entries in (("unused", unused), ("unknown", unknown)) if entries]
            judged.append(
                Finding(
                    path,
                    number,
                    found.start + 1,
                    UNUSED_NOQA,
                    f"`# noqa` entries that suppress nothing on this line ({'; '.join(parts)})",
                    fix="Remove them, or correct a misspelt code or name (`jaxcheck rules` lists them)",
                )
            )
    return judged


class NoqaError(Exception):
    """The file cannot be rewritten safely; the message says why."""


def add_noqa(data: bytes, codes_by_line: dict[int, set[str]]) -> tuple[bytes, int, list[int]]:
    """The file's bytes with `# noqa: CODES` on the given lines (merged into a
    noqa comment already there), every other byte as it was: the new bytes,
    the number of lines changed, and the lines that cannot take a comment
    (they end inside a string or with a backslash)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        raise NoqaError(f"cannot decode: {error}") from None
    if text.encode(encoding) != data:
        raise NoqaError(f"{encoding} does not give the same bytes back")
    comments, ends = {}, set()
    try:
        # Universal newlines: rows count \r\n, \r and \n as LINE_BREAK does.
        for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = (token.start[1], token.string)
            elif token.type in (tokenize.NEWLINE, tokenize.NL):
                ends.add(token.start[0])
    except (tokenize.TokenError, SyntaxError) as error:
        raise NoqaError(f"cannot tokenize: {error}") from None
    pieces = LINE_BREAK.split(text)
    breaks = LINE_BREAK.findall(text)
    changed, refused = 0, []
    for number, codes in sorted(codes_by_line.items()):
        if not 0 < number <= len(pieces):
            continue
        line = pieces[number - 1]
        if number not in ends:
            refused.append(number)
            continue
        new = line.rstrip(" \t") + "  # noqa: " + ", ".join(sorted(codes))
        if number in comments:
            column, comment = comments[number]
            found = directive(comment)
            if found is not None and found.entries is None:
                continue  # a bare `# noqa` silences them already
            if found is not None:
                at = column + found.end
                new = line[:at] + (", " if found.entries else " ") + ", ".join(sorted(codes)) + line[at:]
        pieces[number - 1] = new
        changed += 1
    rebuilt = "".join(piece + brk for piece, brk in zip(pieces, [*breaks, ""]))
    return rebuilt.encode(encoding), changed, refused


def with_noqa(code: str, line_text: str) -> str | None:
    """The line (without its line break) with `code` added to its `# noqa`
    entries, or given a `# noqa: CODE` comment of its own; None when the line
    already suppresses it (an editor's code action)."""
    found = directive(line_text)
    if suppresses(found, code):
        return None
    if found is None:
        return f"{line_text.rstrip()}  # noqa: {code}"
    return line_text[: found.end] + (", " if found.entries else " ") + code + line_text[found.end :]
