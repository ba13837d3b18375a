"""Which texts are Python: one verdict for the CLI, the flake8 plugin and single files.

A file is bad input (JAX000) when Python refuses to compile it. `compile` is
asked rather than `ast.parse`: it also refuses what only the compiler checks
(`return` outside a function, a repeated parameter), as flake8's E999 does
not, and it accepts the long expressions that `ast.parse` gives up on from
Python 3.12 on. Running on an older Python than the file was written for,
the JAX000 names the Python it needs (a `type` statement, type parameters, a
PEP 701 f-string: Python 3.12), as LibCST, which parses that grammar, finds
such syntax where Python stopped.
"""

from __future__ import annotations

import ast
import re
import sys
import warnings

from jaxcheck.failures import deep_recursion
from jaxcheck.findings import BAD_INPUT, Finding, reason

NEWEST_PYTHON = (3, 13)  # the newest grammar jaxcheck judges by
_SAFE_NESTING = 100  # Python's parser refuses more than 200 nested brackets
_LONGEST_LINE = 10_000
_TOP_LEVEL_AWAIT = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT  # a notebook's cells run in an event loop
_NOT_BRACKETS = re.compile(r"[^()\[\]{}]+")


def syntax_error_of(text: str, path: str) -> Finding | None:
    """The JAX000 of a text Python refuses, with Python's own message (the one users know)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes and the like: warnings, not errors
            _compile(text, path)
    except SyntaxError as error:
        line, column = error.lineno or 1, error.offset or 1
        needed = _newer_syntax_at(text, line) if sys.version_info[:2] < NEWEST_PYTHON else ""
        if needed:
            running = ".".join(map(str, sys.version_info[:2]))
            return Finding(
                path, line, column, BAD_INPUT,
                f"cannot parse: {needed} is syntax of Python 3.12, and jaxcheck runs on Python {running} here: "
                "run jaxcheck on Python 3.12 or newer to check this file",
            )
        return Finding(path, line, column, BAD_INPUT, f"cannot parse: syntax error: {error.msg or 'invalid syntax'}")
    except ValueError as error:  # "source code string cannot contain null bytes"
        return Finding(path, 1, 1, BAD_INPUT, f"cannot parse: {reason(error)}")
    except MemoryError:
        return Finding(path, 1, 1, BAD_INPUT, "cannot parse: Python's parser ran out of memory on this file")
    except RecursionError:
        return Finding(path, 1, 1, BAD_INPUT, "cannot parse: the code nests too deeply for Python's own parser")
    return None


def parsed(text: str, path: str) -> tuple[ast.Module | None, Finding | None]:
    """Python's tree of a text (None where `ast.parse` gives up) and its verdict
    (`syntax_error_of`), the text parsed once: the compiler is given the
    tree the reader of facts reads, which saves a quarter of compiling the
    text, and its warnings (an invalid escape) are kept from the user's
    terminal. Where either refuses, the verdict is the text's own, as
    `syntax_error_of` gives it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with deep_recursion():  # as the reader walks it; the compiler runs at the limit it always had
                tree = ast.parse(text, path)
        except Exception:  # a SyntaxError, null bytes, an expression too long or deep for the tree
            return None, syntax_error_of(text, path)
        try:
            _compile(tree, path)
        except Exception:
            problem = syntax_error_of(text, path)
            return (tree if problem is None else None), problem
    return tree, None


def _compile(source: str | ast.Module, path: str) -> None:
    """Python's compiler on a text or its tree, as the file's kind runs it."""
    compile(source, path, "exec", flags=_TOP_LEVEL_AWAIT if path.endswith(".ipynb") else 0, dont_inherit=True)


def unusual(text: str) -> bool:
    """Brackets nested deep, or a line longer than people write: LibCST's native
    parser crashes the process on the first and crawls through the second."""
    return _nesting(text) > _SAFE_NESTING or any(len(line) > _LONGEST_LINE for line in text.split("\n"))


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


def _newer_syntax_at(text: str, line: int) -> str:
    """What syntax of Python 3.12 is at `line`, when LibCST parses the text and
    finds some there: a `type` statement, type parameters, an f-string; else ""."""
    if unusual(text):
        return ""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    try:
        module = cst.parse_module(text)
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
    except (cst.ParserSyntaxError, SyntaxError, RecursionError, MemoryError):  # `CSTValidationError` is a SyntaxError
        return ""
    for node, where in positions.items():
        if isinstance(node, cst.TypeAlias):
            newer = "a `type` statement"
        elif isinstance(node, cst.FormattedString) and _needs_pep_701(node, module):
            newer = "this f-string"
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)) and node.type_parameters is not None:
            newer = "a definition with type parameters"
        else:
            continue
        # A definition's type parameters sit on its header, before its body.
        end = where.end.line if not isinstance(node, (cst.FunctionDef, cst.ClassDef)) else positions[node.body].start.line
        if where.start.line <= line <= end:
            return newer
    return ""


def _needs_pep_701(node, module) -> bool:
    """Whether an f-string's expressions hold what only Python 3.12 allows
    there: the string's own quote, a backslash, or a comment."""
    import libcst as cst

    quote = node.start.lstrip("rRfFbB")[:1]
    for part in node.parts:
        if isinstance(part, cst.FormattedStringExpression):
            code = module.code_for_node(part.expression)
            if quote in code or "\\" in code or "#" in code:
                return True
    return False
