"""From findings to fixed text: which code has which fix, and applying them to one file's text."""

from __future__ import annotations

import ast
import io
import tokenize
import warnings
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

import libcst as cst

from jaxcheck.findings import Finding
from jaxcheck.fixes.disk import in_text, read_fixable
from jaxcheck.fixes.edits import Edit, FixKind, Located, apply_edits, subtree
from jaxcheck.fixes.frozen import frozen_fix
from jaxcheck.fixes.hoisting import hoisting_fix
from jaxcheck.fixes.literals import literal_fix

# Each code's fixers, tried in order: the first that applies to the finding is its fix.
FIXERS: dict[str, tuple[Callable[[Finding, Located], Edit | None], ...]] = {
    "JAX101": (frozen_fix,),
    "JAX102": (frozen_fix,),
    "JAX103": (frozen_fix,),
    "JAX106": (literal_fix, frozen_fix),
    "JAX401": (hoisting_fix,),
}


@dataclass(frozen=True)
class Fixed:
    """A file's text after its fixes, and the findings a fix was applied for."""

    text: str
    applied: tuple[Finding, ...]


def fix_source(text: str, findings: Iterable[Finding], unsafe: bool) -> Fixed:
    """The text with every safe fix of `findings` made (and unsafe ones too with
    `unsafe`). The findings are those of this text; the text comes back
    unchanged, with nothing applied, if the fixed text would not parse or
    would lose a comment."""
    located = _located(text)
    if located is None:
        return Fixed(text, ())
    edits: list[Edit] = []
    applied: list[Finding] = []
    for finding in sorted(set(findings)):
        edit = _edit(finding, located)
        if edit is not None and (unsafe or edit.kind.safe):
            edits.append(edit)
            applied.append(finding)
    # A node moved elsewhere is moved as it was: an edit inside it waits for the next pass.
    moved = {id(node) for edit in edits for _, statement in edit.hoisted for node in subtree(statement)}
    kept = [(edit, finding) for edit, finding in zip(edits, applied) if edit.hoisted or id(edit.target) not in moved]
    edits, applied = [edit for edit, _ in kept], [finding for _, finding in kept]
    if not edits:
        return Fixed(text, ())
    # LibCST writes back a file ending in "\r" without that "\r": what it drops of
    # the text untouched goes back at the end; a text it would change elsewhere is left as it is.
    untouched = located.module.code
    if not text.startswith(untouched):
        return Fixed(text, ())
    fixed = apply_edits(located.module, edits) + text[len(untouched) :]
    if not parses(fixed) or _loses_a_comment(text, fixed):
        return Fixed(text, ())
    return Fixed(fixed, tuple(applied))


def fix_for(finding: Finding, text: str | None = None) -> FixKind | None:
    """The fix a finding has, if any: whether it is safe and what it does.
    `text` is the file's text (an editor's buffer), else read from `finding.path`."""
    if finding.code not in FIXERS:
        return None
    if text is None:
        text = read_fixable(finding.path)
        finding = next(iter(in_text(finding.path, [finding])), finding)
    located = _located(text) if text is not None else None
    edit = _edit(finding, located) if located is not None else None
    return edit.kind if edit is not None else None


def parses(text: str) -> bool:
    """Whether both LibCST (what jaxcheck reads) and Python's compiler accept the text."""
    try:
        cst.parse_module(text)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, "<fixed>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (cst.ParserSyntaxError, SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _loses_a_comment(text: str, fixed: str) -> bool:
    try:
        return bool(Counter(_comments(text)) - Counter(_comments(fixed)))
    except (tokenize.TokenError, SyntaxError):
        return True


def _comments(text: str) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [token.string for token in tokens if token.type == tokenize.COMMENT]


def _edit(finding: Finding, located: Located) -> Edit | None:
    for fixer in FIXERS.get(finding.code, ()):
        edit = fixer(finding, located)
        if edit is not None:
            return edit
    return None


@lru_cache(maxsize=8)
def _located(text: str) -> Located | None:
    """The parsed text; cached, as `fix_for` is asked once per finding of a file."""
    try:
        return Located(cst.parse_module(text))
    except (cst.ParserSyntaxError, RecursionError, MemoryError):
        return None
