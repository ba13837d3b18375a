"""Which texts are Python: one verdict for the CLI, the flake8 plugin and single files.

A file is bad input (JAX000) when Python refuses to compile it, by the grammar
of the newest Python jaxcheck supports. `compile` is asked rather than
`ast.parse`: it also refuses what only the compiler checks (`return` outside
a function, a repeated parameter), it is no slower, and it accepts the long
expressions that `ast.parse` gives up on from Python 3.12 on. Running on an
older Python, a text refused only for syntax that a newer grammar adds (type
parameters, `type` statements, PEP 701 f-strings) is accepted when LibCST,
which parses that grammar, finds such syntax where Python stopped.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
import warnings

from jaxcheck.failures import deep_recursion
from jaxcheck.findings import BAD_INPUT, Finding, reason

NEWEST_PYTHON = (3, 13)  # the newest grammar jaxcheck judges by
_SAFE_NESTING = 100  # Python's parser refuses more than 200 nested brackets
_LONGEST_LINE = 10_000
_TOP_LEVEL_AWAIT = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT  # a notebook's cells run in an event loop
_NOT_BRACKETS = re.compile(r"[^()\[\]{}]+")
_LONE_CONTINUATION = re.compile(r"^([ \t\f]*)\\(?=\r?\n)", re.MULTILINE)


# `syntax_error_of` without LibCST, when only LibCST can tell (`_newer_syntax_at`).
ASK_LIBCST = Finding("", 1, 1, BAD_INPUT, "LibCST must tell whether this is newer syntax")


def syntax_error_of(text: str, path: str, libcst: bool = True) -> Finding | None:
    """The JAX000 of a text Python refuses, with Python's own message (the one
    users know); without `libcst`, ASK_LIBCST where its reading would decide."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes and the like: warnings, not errors
            _compile(text, path)
    except SyntaxError as error:
        if sys.version_info[:2] < NEWEST_PYTHON and not libcst and not unusual(text):
            return ASK_LIBCST
        if sys.version_info[:2] < NEWEST_PYTHON and _newer_syntax_at(text, error.lineno or 0):
            return None
        message = error.msg or "invalid syntax"
        return Finding(path, error.lineno or 1, error.offset or 1, BAD_INPUT, f"cannot parse: syntax error: {message}")
    except ValueError as error:  # "source code string cannot contain null bytes"
        return Finding(path, 1, 1, BAD_INPUT, f"cannot parse: {reason(error)}")
    except MemoryError:
        return Finding(path, 1, 1, BAD_INPUT, "cannot parse: Python's parser ran out of memory on this file")
    except RecursionError:
        return Finding(path, 1, 1, BAD_INPUT, "cannot parse: the code nests too deeply for Python's own parser")
    return None


def parsed(text: str, path: str, libcst: bool = True) -> tuple[ast.Module | None, Finding | None]:
    """Python's tree of a text (None where `ast.parse` gives up) and its verdict
    (`syntax_error_of`), the text parsed once: the compiler is given the
    tree the quick reader reads (`extraction.quick_facts`), which saves a
    quarter of compiling the text, and its warnings (an invalid escape) are
    kept from the user's terminal. Where either refuses, the verdict is the
    text's own, as `syntax_error_of` gives it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with deep_recursion():  # as the reader walks it; the compiler runs at the limit it always had
                tree = ast.parse(text, path)
        except Exception:  # a SyntaxError, null bytes, an expression too long or deep for the tree
            return None, syntax_error_of(text, path, libcst)
        try:
            _compile(tree, path)
        except Exception:
            problem = syntax_error_of(text, path, libcst)
            return (tree if problem is None else None), problem
    return tree, None


def _compile(source: str | ast.Module, path: str) -> None:
    """Python's compiler on a text or its tree, as the file's kind runs it."""
    compile(source, path, "exec", flags=_TOP_LEVEL_AWAIT if path.endswith(".ipynb") else 0, dont_inherit=True)


def unusual(text: str) -> bool:
    """Brackets nested deep, or a line longer than people write: LibCST's native
    parser crashes the process on the first and crawls through the second, so
    Python's parser, which refuses both, is asked first."""
    return _nesting(text) > _SAFE_NESTING or any(len(line) > _LONGEST_LINE for line in text.split("\n"))


def without_lone_continuations(text: str) -> str | None:
    """The text with each line that is only a backslash continuation made blank,
    or None when there is none outside strings. Python reads such a line as
    nothing; LibCST refuses one before `else:`, `finally:` and the like. Lines
    and columns stay where they were, so findings still point at the source."""
    inside_strings: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] != token.end[0]:
                inside_strings.update(range(token.start[0] + 1, token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        return None
    lines = text.splitlines(keepends=True)
    changed = False
    for number, line in enumerate(lines, start=1):
        match = _LONE_CONTINUATION.match(line)
        if match and number not in inside_strings:
            lines[number - 1] = match.group(1) + " " + line[match.end():]
            changed = True
    return "".join(lines) if changed else None


def _nesting(text: str) -> int:
    """How deep brackets nest in the text (strings and comments counted too: an upper bound)."""
    depth = deepest = 0
    for bracket in _NOT_BRACKETS.sub("", text):
        if bracket in "([{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _newer_syntax_at(text: str, line: int) -> bool:
    """LibCST parses the text, and `line` is inside syntax newer than this
    Python: a `type` statement, a definition with type parameters, an f-string."""
    if unusual(text):
        return False
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    try:
        wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
    except (cst.ParserSyntaxError, SyntaxError, RecursionError, MemoryError):  # `CSTValidationError` is a SyntaxError
        return False
    for node, where in positions.items():
        newer = (
            isinstance(node, (cst.TypeAlias, cst.FormattedString))
            or isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.type_parameters is not None
        )
        if newer:
            # A definition's type parameters sit on its header, before its body.
            end = where.end.line if not isinstance(node, (cst.FunctionDef, cst.ClassDef)) else positions[node.body].start.line
            if where.start.line <= line <= end:
                return True
    return False
