"""Source text to facts, by either reader: Python's `ast` first, LibCST
where that cannot promise LibCST's facts and where the facts decide a finding.
The only part of jaxcheck that imports LibCST, and only when it reads with it."""

from __future__ import annotations

import ast
import importlib

from jaxcheck.extraction.ast_reader import Declined, ast_facts
from jaxcheck.facts import ModuleFacts


class ParseError(Exception):
    """The text is not Python that LibCST can parse; `line`/`column` say where."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def quick_facts(
    text: str, path: str, module_name: str, is_package: bool = False, tree: ast.Module | None = None
) -> ModuleFacts | None:
    """The facts LibCST's tree gives (`facts_from_source`), read from Python's
    `ast` (its `tree` of the text, when it was parsed already) for a quarter
    of the CPU (`ast_reader`), or None where that reader cannot promise them."""
    try:
        return ast_facts(text, path, module_name, is_package, tree)
    except (Declined, SyntaxError, RecursionError, MemoryError):
        return None  # a construct it cannot promise LibCST's facts for, or grammar newer than this Python


def facts_from_source(text: str, path: str, module_name: str, is_package: bool = False) -> ModuleFacts:
    """Parse with LibCST and extract; `ParseError` when LibCST cannot parse the text."""
    import libcst as cst

    try:
        tree = cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        message = str(error).strip().splitlines()[0] if str(error).strip() else "invalid syntax"
        raise ParseError(f"syntax error: {message}", error.raw_line, error.raw_column + 1) from None
    except cst.CSTValidationError as error:  # `"a" b"b"`: parsed, but no valid tree
        raise ParseError(f"invalid code: {str(error).strip() or 'a node LibCST cannot build'}") from None
    except RecursionError:
        raise ParseError("the file nests too deeply to parse") from None
    return extract_facts(tree, path, module_name, is_package)


def load_libcst() -> None:
    """LibCST and its reader imported, nothing read: for processes forked later (`loading.loader._load_parser`)."""
    importlib.import_module("jaxcheck.extraction.module")


def extract_facts(tree, path: str, module_name: str, is_package: bool) -> ModuleFacts:
    """`module.extract_facts`: LibCST's tree to facts (the module imports LibCST)."""
    from jaxcheck.extraction import module

    return module.extract_facts(tree, path, module_name, is_package)
