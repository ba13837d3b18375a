"""Where a finding ends: the extent of what it points at, as LibCST places it.

A finding points at the start of an expression (a call, a value, an
attribute written), a member or a class. Its range, for the formats and
editors that show one, is that expression's: LibCST, the library for
concrete syntax, parses each file with findings once, and the widest
expression starting at the finding's place (operators aside: `f(x) + 1`
at `f` is the call) gives its end. A class or function reported at its
first line ends after its name. Where no node starts there, the range is
the rest of the line's code.
"""

from __future__ import annotations

import io
import tokenize

from jaxcheck.loading.syntax import unusual

# Expressions a finding never means when a narrower one starts at the same
# place: `f(x) + 1` reported at `f` is about the call.
_COMPOUND_EXPRESSIONS = (
    "BinaryOperation",
    "BooleanOperation",
    "Comparison",
    "IfExp",
    "NamedExpr",
    "Await",
)


class Ranges:
    """The ends of the places findings point at in one text, parsed on first use."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._ends: dict[tuple[int, int], tuple[int, int]] | None = None

    def end(self, line: int, column: int) -> tuple[int, int]:
        """The end (1-based line, 1-based exclusive column) of what starts at
        `line`:`column` (1-based): its expression, else the rest of the line's code."""
        if self._ends is None:
            self._ends = _ends_of(self.text)
        found = self._ends.get((line, column))
        if found is not None:
            return found
        lines = self.text.splitlines()
        return line, end_of_code(lines[line - 1] if 0 < line <= len(lines) else None, column)


def end_of_code(line: str | None, column: int) -> int:
    """Where the code on a line ends, 1-based and exclusive (SARIF's and ruff's
    convention): its comment and trailing blanks left out; never before `column`."""
    if line is None:
        return column
    return max(len(_code_of(line).rstrip()) + 1, column)


def _code_of(line: str) -> str:
    """The line without its comment, as Python's tokenizer finds it (a `#` in a string is not one)."""
    if "#" not in line:
        return line
    try:
        for token in tokenize.generate_tokens(io.StringIO(line).readline):
            if token.type == tokenize.COMMENT:
                return line[: token.start[1]]
    except (tokenize.TokenError, SyntaxError):
        pass  # a line of a statement that goes on: the tokens before it were seen
    return line


def _ends_of(text: str) -> dict[tuple[int, int], tuple[int, int]]:
    """For each place a node starts (1-based line and column): where the node a
    finding there means ends. Empty when LibCST cannot read the text."""
    if unusual(text):  # brackets nested deep crash LibCST's native parser
        return {}
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    try:
        wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
    except Exception:  # a text LibCST refuses: the rest of the line will do
        return {}
    ends: dict[tuple[int, int], tuple[tuple[int, int], int]] = {}  # start -> (end, rank: higher wins)
    for node, where in positions.items():
        start = (where.start.line, where.start.column + 1)
        if isinstance(node, (cst.ClassDef, cst.FunctionDef)):
            name = positions[node.name]
            end, rank = (name.end.line, name.end.column + 1), 3
        elif isinstance(node, cst.BaseExpression) and type(node).__name__ not in _COMPOUND_EXPRESSIONS:
            end, rank = (where.end.line, where.end.column + 1), 2
        elif isinstance(node, cst.BaseSmallStatement):
            end, rank = (where.end.line, where.end.column + 1), 1
        else:
            continue
        known = ends.get(start)
        if known is None or (rank, end) > (known[1], known[0]):
            ends[start] = (end, rank)
    return {start: end for start, (end, _) in ends.items()}

