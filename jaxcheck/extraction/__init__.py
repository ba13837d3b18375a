"""Source text to facts. Python's `ast` is the one reader of facts; LibCST,
the library for concrete syntax, serves the fixes and the exact ranges of
findings, never the facts."""

from __future__ import annotations

import ast

from jaxcheck.extraction.ast_reader import ast_facts
from jaxcheck.facts import ModuleFacts


def facts_from_source(
    text: str, path: str, module_name: str, is_package: bool = False, tree: ast.Module | None = None
) -> ModuleFacts:
    """The facts of a module's text (`tree`, when given, is `ast.parse(text)`);
    SyntaxError when this Python cannot parse it."""
    return ast_facts(text, path, module_name, is_package, tree)
