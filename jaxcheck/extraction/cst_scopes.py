"""The first pass over LibCST's tree: the names each scope binds and the imports it makes."""

from __future__ import annotations

import libcst as cst

from jaxcheck.extraction.scopes import CLASS, FUNCTION, MODULE, Scope, ScopeTable, build_scopes, import_base
from jaxcheck.extraction.tree import all_parameters, body_statements, dotted_name


def cst_scopes(tree: cst.Module, module_name: str, is_package: bool) -> ScopeTable:
    return build_scopes(tree.body, module_name, is_package, _bind_statement)


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
    written = dotted_name(node.module) if node.module is not None else ""
    return import_base(written, len(node.relative), module_name, is_package)
