"""What a fix is (a LibCST edit at the node a finding points at), and how edits are applied.

A fix re-parses the file: the model's facts hold no syntax, and the text may
have changed since (an editor's unsaved buffer). Edits replace nodes of that
tree, so everything the fix does not touch, comments and formatting
included, is written back as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider, ScopeProvider

SAFE, UNSAFE = "safe", "unsafe"


@dataclass(frozen=True)
class FixKind:
    """Whether a finding has a fix, what it does, and whether it keeps what the
    program computes (`safe`, applied by `--fix`) or may change it (`unsafe`,
    applied only with `--unsafe-fixes`), as ruff's fix safety."""

    safety: str  # SAFE or UNSAFE
    title: str  # what the fix does, a few words: "Replace the list with a tuple"

    @property
    def safe(self) -> bool:
        return self.safety == SAFE


@dataclass(frozen=True)
class Edit:
    """One fix: `change` rebuilds `target` (as already edited inside, when
    another fix changed a node below it), and `hoisted` statements go into the
    module body before the top-level statement of that index."""

    kind: FixKind
    target: cst.CSTNode
    change: Callable[[cst.CSTNode], cst.CSTNode]
    hoisted: tuple[tuple[int, cst.BaseStatement], ...] = ()


class Located:
    """A parsed module and its nodes by where they start, as findings give it
    (1-based line and column)."""

    def __init__(self, module: cst.Module):
        self.wrapper = wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        self.module = module
        self.positions = wrapper.resolve(PositionProvider)
        self._scopes = None
        self.starting: dict[tuple[int, int], list[cst.CSTNode]] = {}
        for node, position in self.positions.items():
            self.starting.setdefault((position.start.line, position.start.column + 1), []).append(node)
        self.parents: dict[cst.CSTNode, cst.CSTNode] = {}
        for node in self.positions:
            for child in node.children:
                self.parents[child] = node

    @property
    def scopes(self):
        """Each node's scope: resolved only for the fixes that ask (it costs more than the parse)."""
        if self._scopes is None:
            self._scopes = self.wrapper.resolve(ScopeProvider)
        return self._scopes

    def at(self, line: int, column: int, kinds: tuple[type, ...]) -> list[cst.CSTNode]:
        """The nodes of those kinds that start there, outermost first."""
        return [node for node in self.starting.get((line, column), ()) if isinstance(node, kinds)]

    def line_of(self, node: cst.CSTNode) -> int:
        return self.positions[node].start.line

    def enclosing(self, node: cst.CSTNode, kinds: tuple[type, ...]) -> cst.CSTNode | None:
        """The nearest ancestor of those kinds."""
        node = self.parents.get(node)
        while node is not None and not isinstance(node, kinds):
            node = self.parents.get(node)
        return node

    def top_level_index(self, node: cst.CSTNode) -> int:
        """The index in the module body of the statement that holds `node`."""
        while self.parents.get(node) is not self.module:
            node = self.parents[node]
        return list(self.module.body).index(node)


def subtree(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The node and every node below it."""
    nodes, stack = [], [node]
    while stack:
        current = stack.pop()
        nodes.append(current)
        stack.extend(current.children)
    return nodes


class _Applier(cst.CSTTransformer):
    def __init__(self, edits: list[Edit]):
        super().__init__()
        self.changes: dict[cst.CSTNode, list[Callable]] = {}
        for edit in edits:
            self.changes.setdefault(edit.target, []).append(edit.change)
        self.hoisted = sorted(
            (index, order, statement)
            for order, edit in enumerate(edits)
            for index, statement in edit.hoisted
        )

    def on_leave(self, original_node, updated_node):
        for change in self.changes.get(original_node, ()):
            updated_node = change(updated_node)
        return super().on_leave(original_node, updated_node)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self.hoisted:
            return updated_node
        body = list(updated_node.body)
        for index, _, statement in reversed(self.hoisted):
            body.insert(index, statement)
        return updated_node.with_changes(body=body)


def apply_edits(module: cst.Module, edits: list[Edit]) -> str:
    """The module's code with the edits made."""
    return module.visit(_Applier(edits)).code
