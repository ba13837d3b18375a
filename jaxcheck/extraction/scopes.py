"""Name resolution for one module: which scope binds a name, and imports.

A first pass over the statements records, per scope, the names it binds and
the imports it makes; `Scope.resolve` then turns a name into a `Ref`. A plain
import-alias table is all the linter needs: on the jax sources it finds
exactly the `jax.jit` uses that full scope analysis finds, at a fraction of
the cost.
"""

from __future__ import annotations

import builtins

import libcst as cst

from jaxcheck.extraction.tree import all_parameters, body_statements, dotted_name
from jaxcheck.facts import Ref

_BUILTINS = frozenset(dir(builtins))
MODULE, CLASS, FUNCTION = "module", "class", "function"


class Scope:
    """A module, class body or function, and the names bound in it."""

    def __init__(self, kind: str, qualname: str, parent: Scope | None) -> None:
        self.kind = kind
        self.qualname = qualname
        self.parent = parent
        self.imports: dict[str, str] = {}  # local name -> absolute dotted target
        self.bound: set[str] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.aliases: dict[str, str] = {}  # module level `name = other.dotted`
        self.parameters: list[str] = []
        self.definitions: set[str] = set()  # names bound by `def`/`class`

    @property
    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def local_ref(self, name: str) -> Ref:
        # A def or class nested in a function is named by its qualname, like
        # one at module level, so that its uses and its facts meet.
        if self.kind == FUNCTION and name not in self.definitions:
            return Ref(name, self.qualname)
        return Ref(f"{self.qualname}.{name}")

    def resolve(self, name: str) -> Ref:
        """The ref of `name` as read in this scope."""
        scope: Scope | None = self
        if name in self.globals:
            scope = self.module
        elif name in self.nonlocals:
            scope = self.parent
        first = True
        while scope is not None:
            # Class bodies are not visible from the functions nested in them.
            if first or scope.kind != CLASS:
                if name in scope.imports:
                    return Ref(scope.imports[name])
                if name in scope.bound:
                    if scope.kind == MODULE and name in scope.aliases:
                        return self._resolve_alias(scope, name)
                    return scope.local_ref(name)
            first = False
            scope = scope.parent
        if name in _BUILTINS:
            return Ref(f"builtins.{name}")
        return self.module.local_ref(name)

    def exported_imports(self) -> tuple[tuple[str, str], ...]:
        """What a module's names import, for re-exports: `from .settings import Config`,
        and `jit = jax.jit` aliases."""
        found = dict(self.imports)
        for name in self.aliases:
            if name not in found:
                target = self.resolve(name)
                if target != self.local_ref(name) and not target.is_local:
                    found[name] = target.name
        return tuple(sorted(found.items()))

    def binding_ref(self, name: str) -> Ref:
        """The ref an assignment to `name` in this scope binds."""
        if name in self.globals or name in self.nonlocals:
            return self.resolve(name)
        return self.local_ref(name)

    def resolve_dotted(self, dotted: str) -> Ref:
        head, _, rest = dotted.partition(".")
        ref = self.resolve(head)
        return ref.attribute(*rest.split(".")) if rest else ref

    @staticmethod
    def _resolve_alias(module: Scope, name: str) -> Ref:
        seen = {name}
        target = module.aliases[name]
        while True:
            head, _, rest = target.partition(".")
            if head in module.imports:
                base = module.imports[head]
            elif head in module.aliases and head not in seen:
                seen.add(head)
                target = module.aliases[head] + (f".{rest}" if rest else "")
                continue
            else:
                return module.local_ref(name)
            return Ref(f"{base}.{rest}" if rest else base)


class ScopeTable:
    """The scopes of a module, found by node."""

    def __init__(self, module_scope: Scope) -> None:
        self.module = module_scope
        self._by_node: dict[int, Scope] = {}

    def of(self, node: cst.CSTNode) -> Scope:
        """The scope a class or function node opens."""
        return self._by_node[id(node)]

    def add(self, node: cst.CSTNode, scope: Scope) -> None:
        self._by_node[id(node)] = scope


def build_scopes(tree: cst.Module, module_name: str, is_package: bool) -> ScopeTable:
    table = ScopeTable(Scope(MODULE, module_name, None))
    _bind_block(tree.body, table.module, table, module_name, is_package)
    return table


def _bind_block(statements, scope: Scope, table: ScopeTable, module_name: str, is_package: bool) -> None:
    for statement in statements:
        _bind_statement(statement, scope, table, module_name, is_package)


def _bind_statement(node, scope: Scope, table: ScopeTable, module_name: str, is_package: bool) -> None:
    if isinstance(node, cst.SimpleStatementLine):
        for small in node.body:
            _bind_small(small, scope, module_name, is_package)
    elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        scope.bound.add(node.name.value)
        scope.definitions.add(node.name.value)
        kind = FUNCTION if isinstance(node, cst.FunctionDef) else CLASS
        inner = Scope(kind, f"{scope.qualname}.{node.name.value}", scope)
        table.add(node, inner)
        if kind == FUNCTION:
            _bind_parameters(node.params, inner)
        _bind_block(body_statements(node.body), inner, table, module_name, is_package)
    else:
        if isinstance(node, cst.For):
            _bind_target(node.target, scope)
        elif isinstance(node, cst.With):
            for item in node.items:
                if item.asname is not None:
                    _bind_target(item.asname.name, scope)
        elif isinstance(node, (cst.Try, cst.TryStar)):
            for handler in node.handlers:
                if handler.name is not None:
                    _bind_target(handler.name.name, scope)
        for block in _blocks(node):
            _bind_block(block, scope, table, module_name, is_package)


def _blocks(node):
    """The statement lists inside a compound statement other than def/class."""
    for name in ("body", "orelse", "finalbody"):
        part = getattr(node, name, None)
        if part is None:
            continue
        if isinstance(part, (cst.Else, cst.Finally, cst.If)):
            if isinstance(part, cst.If):
                yield body_statements(part.body)
                yield from _blocks(part)
                continue
            part = part.body
        yield body_statements(part)
    for handler in getattr(node, "handlers", ()):
        yield body_statements(handler.body)
    for case in getattr(node, "cases", ()):
        yield body_statements(case.body)


def _bind_parameters(params: cst.Parameters, scope: Scope) -> None:
    for param, _ in all_parameters(params):
        scope.bound.add(param.name.value)
        scope.parameters.append(param.name.value)


def _bind_small(node, scope: Scope, module_name: str, is_package: bool) -> None:
    if isinstance(node, cst.Import):
        for alias in node.names:
            dotted = dotted_name(alias.name) or ""
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                scope.imports[alias.asname.name.value] = dotted
            else:
                head = dotted.partition(".")[0]
                scope.imports[head] = head
    elif isinstance(node, cst.ImportFrom):
        base = _import_base(node, module_name, is_package)
        if base is None or isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = alias.name.value if isinstance(alias.name, cst.Name) else dotted_name(alias.name)
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            scope.imports[local] = f"{base}.{name}" if base else name
    elif isinstance(node, cst.Assign):
        for target in node.targets:
            _bind_target(target.target, scope)
        if scope.kind == MODULE and len(node.targets) == 1:
            target = node.targets[0].target
            source = dotted_name(node.value)
            if isinstance(target, cst.Name) and source is not None:
                scope.aliases[target.value] = source
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        _bind_target(node.target, scope)
    elif isinstance(node, cst.Global):
        scope.globals.update(name.name.value for name in node.names)
    elif isinstance(node, cst.Nonlocal):
        scope.nonlocals.update(name.name.value for name in node.names)
    elif isinstance(node, cst.Del):
        _bind_target(node.target, scope)


def _bind_target(target, scope: Scope) -> None:
    if isinstance(target, cst.Name):
        scope.bound.add(target.value)
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            _bind_target(element.value, scope)
    elif isinstance(target, cst.StarredElement):
        _bind_target(target.value, scope)


def _import_base(node: cst.ImportFrom, module_name: str, is_package: bool) -> str | None:
    """The absolute module a `from ... import` names, or None when it climbs too high."""
    written = dotted_name(node.module) if node.module is not None else ""
    level = len(node.relative)
    if level == 0:
        return written
    parts = module_name.split(".")
    if not is_package:
        parts = parts[:-1]
    if level - 1 >= len(parts):
        return None
    parts = parts[: len(parts) - (level - 1)]
    if written:
        parts.append(written)
    return ".".join(parts)
