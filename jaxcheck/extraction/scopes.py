"""Name resolution for one module: which scope binds a name, and imports.

A first pass over the statements (`ast_reader._bind_block`) records, per scope, the names it binds and the imports it
makes; `Scope.resolve` then turns a name into a `Ref`. A plain
import-alias table is all the linter needs: on the jax sources it finds
exactly the `jax.jit` uses that full scope analysis finds, at a fraction of
the cost.
A scope is complete before its first look-up, so each name is resolved once.
"""

from __future__ import annotations

import builtins

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
        self.aliases: dict[str, str] = {}  # `name = other.dotted`, and in a function `name = a.b if c else d.e`
        self.rebound: set[str] = set()  # names a function binds more than once: no alias
        self.parameters: list[str] = []
        self.definitions: set[str] = set()  # names bound by `def`/`class`
        # The function a name read here is read in ("" outside any).
        self.function: str = qualname if kind == FUNCTION else parent.function if parent is not None else ""
        self._resolved: dict[str, Ref] = {}  # dotted name -> its ref, filled by the look-ups

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
        ref = self._resolved.get(name)
        if ref is None:
            ref = self._resolved[name] = self._resolve(name)
        return ref

    def _resolve(self, name: str) -> Ref:
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
                    if scope.kind == FUNCTION and name in scope.aliases:
                        return scope._resolve_local_alias(name)
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
        ref = self._resolved.get(dotted)
        if ref is None:
            head, _, rest = dotted.partition(".")
            ref = self.resolve(head)
            if rest:
                ref = self._resolved[dotted] = ref.attribute(*rest.split("."))
        return ref

    def _resolve_local_alias(self, name: str) -> Ref:
        """A function's local bound once, to a dotted name whose head is no
        local of the function (`jax.jit`, not `self.step`): that name."""
        if name in self.rebound or name in self.parameters:
            return self.local_ref(name)
        head, _, rest = self.aliases[name].partition(".")
        if head == name or head in self.bound:
            return self.local_ref(name)
        base = self.resolve(head)
        if base.is_local or base.name.startswith("builtins."):
            return self.local_ref(name)
        return base.attribute(*rest.split(".")) if rest else base

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

    def of(self, node: object) -> Scope:
        """The scope a class or function node opens (of either reader's tree)."""
        return self._by_node[id(node)]

    def add(self, node: object, scope: Scope) -> None:
        self._by_node[id(node)] = scope


def build_scopes(statements, module_name: str, is_package: bool, bind_statement) -> ScopeTable:
    """The scopes of a module from its statements; `bind_statement(node, scope,
    table, module_name, is_package)` is the reader's step for one statement."""
    table = ScopeTable(Scope(MODULE, module_name, None))
    for statement in statements:
        bind_statement(statement, table.module, table, module_name, is_package)
    return table


def import_base(written: str, level: int, module_name: str, is_package: bool) -> str | None:
    """The absolute module `from <level dots><written> import ...` names in
    this module, or None when it climbs above the top package."""
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
