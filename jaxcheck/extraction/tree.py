"""Fast access to a LibCST tree: child iteration, dotted names, positions.

LibCST's visitor dispatch costs about 0.6x a parse over the real-code corpus and
its PositionProvider about 1.7x; the walk and the position pass here cost about
0.05x and 0.25x, which keeps a check close to the cost of parsing.
"""

from __future__ import annotations

import dataclasses
import re

import libcst as cst
from libcst._nodes.internal import CodegenState

_NEWLINE = re.compile(r"\r\n?|\n")
_NOT_CHILDREN = frozenset(
    {
        "lpar",
        "rpar",
        "comma",
        "semicolon",
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "newline",
        "trailing_whitespace",
        "equal",
        "colon",
        "dot",
        "star",
        "operator",
        "walrus",
        "arrow",
        "asynchronous",
    }
)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(node_type: type) -> tuple[str, ...]:
    names = _FIELDS.get(node_type)
    if names is None:
        names = tuple(
            field.name
            for field in dataclasses.fields(node_type)
            if field.name not in _NOT_CHILDREN and not field.name.startswith("whitespace")
        )
        _FIELDS[node_type] = names
    return names


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The syntactic children of `node` in source order, whitespace left out."""
    found: list[cst.CSTNode] = []
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            found.append(value)
        elif isinstance(value, (tuple, list)):
            found.extend(item for item in value if isinstance(item, cst.CSTNode))
    return found


def walk(node: cst.CSTNode, *, into_scopes: bool = True):
    """Every node below `node` (itself included), depth first.

    With `into_scopes=False` the bodies of nested functions, lambdas and
    classes are not entered (the nested node itself is yielded).
    """
    stack = [node]
    scopes = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
    while stack:
        current = stack.pop()
        yield current
        if not into_scopes and current is not node and isinstance(current, scopes):
            continue
        stack.extend(reversed(children(current)))


def body_statements(body) -> list[cst.CSTNode]:
    """The statements of an indented block or of a one-line `if x: a; b` suite."""
    if isinstance(body, cst.IndentedBlock):
        return list(body.body)
    if isinstance(body, cst.SimpleStatementSuite):
        return [cst.SimpleStatementLine(body=body.body)]
    return []


def all_parameters(params: cst.Parameters) -> list[tuple[cst.Param, str]]:
    """Every parameter with its kind: "positional", "vararg", "keyword" or "varkw"."""
    found = [(param, "positional") for param in (*params.posonly_params, *params.params)]
    if isinstance(params.star_arg, cst.Param):
        found.append((params.star_arg, "vararg"))
    found.extend((param, "keyword") for param in params.kwonly_params)
    if params.star_kwarg is not None:
        found.append((params.star_kwarg, "varkw"))
    return found


def dotted_name(node: cst.CSTNode) -> str | None:
    """`a.b.c` for a Name/Attribute chain, None for anything else."""
    parts = []
    while type(node) is cst.Attribute:  # LibCST's node classes are final: `is` spares isinstance's ABC check
        parts.append(node.attr.value)
        node = node.value
    if type(node) is not cst.Name:
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


class _PositionState(CodegenState):
    """Code generation that only tracks where each node starts."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.line = 1
        self.column = 0
        self.starts: dict[int, tuple[int, int]] = {}

    def _advance(self, text: str) -> None:
        if "\n" not in text and "\r" not in text:  # nearly every token: no split
            self.column += len(text)
            return
        pieces = _NEWLINE.split(text)
        self.line += len(pieces) - 1
        self.column = len(pieces[-1])

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self._advance(token)

    def add_token(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            self._advance(value)
        else:
            self.column += len(value)

    def pop_trailing_newline(self) -> None:
        pass

    def before_codegen(self, node: cst.CSTNode) -> None:
        # Each node is generated once; `record_syntactic_position`, called
        # later for the same node, corrects this where its syntax starts later.
        self.starts[id(node)] = (self.line, self.column)

    def after_codegen(self, node: cst.CSTNode) -> None:
        pass

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        # Nodes call this where their own syntax starts: statements after their
        # leading comments and decorators, expressions inside their parentheses.
        # A tuple keeps its parentheses, as in Python's `ast`.
        if type(node) is not cst.Tuple:
            self.starts[id(node)] = (self.line, self.column)
        return _NO_CONTEXT


class _NoContext:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info) -> None:
        return None


_NO_CONTEXT = _NoContext()


class Positions:
    """Start positions of the nodes of one module, computed on first use."""

    def __init__(self, module: cst.Module) -> None:
        self._module = module
        self._starts: dict[int, tuple[int, int]] | None = None

    def start(self, node: cst.CSTNode) -> tuple[int, int]:
        """1-based line and 1-based column where `node` starts."""
        if self._starts is None:
            state = _PositionState(self._module)
            self._module._codegen(state)
            self._starts = state.starts
        line, column = self._starts[id(node)]
        return line, column + 1
