"""A mutable, unhashable or identity-hashed dataclass at a static position
becomes a frozen one that hashes by value (JAX101, JAX102, JAX103, JAX106).

The decorator gets `frozen=True` and loses `unsafe_hash=True` and `eq=False`,
so that `dataclass` (or attrs) writes `__eq__` and `__hash__` over every
field. Always unsafe: code that sets a field after construction now raises
`FrozenInstanceError`, and `eq=False` dropped changes what `==` says.

No fix is offered where it would surely break the program or not fix the
finding: a class whose own methods assign `self.x` (`__post_init__`, a
setter), one that writes its own `__eq__`, `__hash__`, `__setattr__` or
`__delattr__`, one with a base that is not known to be a frozen dataclass
(a frozen dataclass cannot inherit from a non-frozen one), or one with a
subclass in the same file that is a non-frozen dataclass.
"""

from __future__ import annotations

import libcst as cst

from jaxcheck.findings import Finding
from jaxcheck.fixes.edits import UNSAFE, Edit, FixKind, Located

_DECORATORS = frozenset({"dataclasses.dataclass", "attr.s", "attr.attrs", "attr.define", "attrs.define"})
_OWN_METHODS = frozenset({"__eq__", "__hash__", "__setattr__", "__delattr__"})
_NEUTRAL_BASES = frozenset({"object", "typing.Generic", "abc.ABC"})


def frozen_fix(finding: Finding, located: Located) -> Edit | None:
    cls = _class_at(finding, located)
    if cls is None:
        return None
    names = _imported_names(located.module)
    decorator = _dataclass_decorator(cls, names)
    if decorator is None:
        return None
    index = list(cls.decorators).index(decorator)
    keywords = _keywords(decorator.decorator)
    eq_false = _is_false(keywords.get("eq"))
    if finding.code in {"JAX102", "JAX103"} and not eq_false:
        return None  # a hand-written hash (by `id`, or leaving out a field): what to write is the author's choice
    if finding.code in {"JAX101", "JAX106"} and _is_true(keywords.get("frozen")) and not eq_false:
        return None
    if not _can_freeze(cls, located.module, names):
        return None
    title = f"Make `{cls.name.value}` a frozen dataclass that hashes by value"
    return Edit(FixKind(UNSAFE, title), cls, lambda node: _freeze(node, index))


def _class_at(finding: Finding, located: Located) -> cst.ClassDef | None:
    """The class a finding is about: at its `class` line or its first decorator's
    line; for JAX103, also a field or method line inside the class."""
    for node in located.positions:
        if isinstance(node, cst.ClassDef):
            first = located.line_of(node.decorators[0]) if node.decorators else located.line_of(node)
            if finding.line in {first, located.line_of(node)}:
                return node
    if finding.code != "JAX103":
        return None
    inside = [node for node in located.starting.get((finding.line, finding.column), ())]
    for node in inside:
        cls = located.enclosing(node, (cst.ClassDef, cst.FunctionDef))
        if isinstance(cls, cst.ClassDef):
            return cls
    return None


def _imported_names(module: cst.Module) -> dict[str, str]:
    """Local name -> the module path it stands for, from the module's imports."""
    names: dict[str, str] = {}

    class Imports(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                dotted = _dotted(alias.name)
                if alias.asname is not None:
                    names[_dotted(alias.asname.name)] = dotted
                else:
                    names[dotted.partition(".")[0]] = dotted.partition(".")[0]

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
                return
            source = _dotted(node.module)
            for alias in node.names:
                local = _dotted(alias.asname.name) if alias.asname is not None else _dotted(alias.name)
                names[local] = f"{source}.{_dotted(alias.name)}"

    module.visit(Imports())
    return names


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr.value}" if inner else ""
    return ""


def _callee(expression: cst.BaseExpression) -> cst.BaseExpression:
    return expression.func if isinstance(expression, cst.Call) else expression


def _qualified(expression: cst.BaseExpression, names: dict[str, str]) -> str:
    dotted = _dotted(expression)
    head, dot, rest = dotted.partition(".")
    return f"{names[head]}{dot}{rest}" if head in names else dotted


def _keywords(expression: cst.BaseExpression) -> dict[str, cst.BaseExpression]:
    if not isinstance(expression, cst.Call):
        return {}
    return {arg.keyword.value: arg.value for arg in expression.args if arg.keyword is not None}


def _is_true(value: cst.BaseExpression | None) -> bool:
    return isinstance(value, cst.Name) and value.value == "True"


def _is_false(value: cst.BaseExpression | None) -> bool:
    return isinstance(value, cst.Name) and value.value == "False"


def _can_freeze(cls: cst.ClassDef, module: cst.Module, names: dict[str, str]) -> bool:
    if cls.keywords or _assigns_self(cls) or _defines(cls) & _OWN_METHODS:
        return False
    classes = {node.name.value: node for node in module.body if isinstance(node, cst.ClassDef)}
    for base in cls.bases:
        if base.keyword is not None or base.star:
            return False
        value = base.value.value if isinstance(base.value, cst.Subscript) else base.value
        if _qualified(value, names) in _NEUTRAL_BASES:
            continue
        parent = classes.get(_dotted(value))
        if parent is None or not _frozen_dataclass(parent, names):
            return False
    for other in classes.values():
        below = any(_dotted(base.value) == cls.name.value for base in other.bases)
        if below and _dataclass_decorator(other, names) is not None and not _frozen_dataclass(other, names):
            return False
    return True


def _dataclass_decorator(cls: cst.ClassDef, names: dict[str, str]) -> cst.Decorator | None:
    return next((d for d in cls.decorators if _qualified(_callee(d.decorator), names) in _DECORATORS), None)


def _frozen_dataclass(cls: cst.ClassDef, names: dict[str, str]) -> bool:
    decorator = _dataclass_decorator(cls, names)
    return decorator is not None and _is_true(_keywords(decorator.decorator).get("frozen"))


def _defines(cls: cst.ClassDef) -> set[str]:
    """The names the class body binds itself: methods and assignments."""
    defined = set()
    for statement in cls.body.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            defined.add(statement.name.value)
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else []
                targets += [small.target] if isinstance(small, (cst.AnnAssign, cst.AugAssign)) else []
                defined.update(t.value for t in targets if isinstance(t, cst.Name))
    return defined


def _assigns_self(cls: cst.ClassDef) -> bool:
    """Whether a method of the class sets an attribute of `self` (a frozen instance would raise)."""

    class Finder(cst.CSTVisitor):
        found = False

        def _check(self, target: cst.BaseExpression) -> None:
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
                self.found = True
            elif isinstance(target, (cst.Tuple, cst.List)):
                for element in target.elements:
                    self._check(element.value)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            self._check(node.target)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._check(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self._check(node.target)

        def visit_Del(self, node: cst.Del) -> None:
            self._check(node.target)

    finder = Finder()
    cls.body.visit(finder)
    return finder.found


def _freeze(cls: cst.ClassDef, index: int) -> cst.ClassDef:
    decorators = list(cls.decorators)
    decorators[index] = decorators[index].with_changes(decorator=_frozen_call(decorators[index].decorator))
    return cls.with_changes(decorators=decorators)


def _frozen_call(expression: cst.BaseExpression) -> cst.Call:
    """The decorator with `frozen=True`, without `unsafe_hash` and `eq=False`.
    A dropped argument's comma (and the comment or line break after it) goes
    to the argument before it, so the layout of the rest is kept."""
    frozen = cst.Arg(
        value=cst.Name("True"),
        keyword=cst.Name("frozen"),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )
    if not isinstance(expression, cst.Call):
        return cst.Call(func=expression, args=[frozen])
    args: list[cst.Arg] = []
    placed, dropped_comma = False, None
    for arg in expression.args:
        name = arg.keyword.value if arg.keyword is not None else None
        if name == "unsafe_hash" or (name == "eq" and _is_false(arg.value)):
            if args:
                args[-1] = args[-1].with_changes(comma=arg.comma)
            dropped_comma = arg.comma
        elif name == "frozen":
            args.append(arg.with_changes(value=cst.Name("True")))
            placed = True
        else:
            args.append(arg)
    if not placed and args:
        last = args[-1]
        args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        args.append(frozen.with_changes(comma=last.comma))
    elif not placed:
        args.append(frozen.with_changes(comma=dropped_comma if dropped_comma is not None else cst.MaybeSentinel.DEFAULT))
    return expression.with_changes(args=args)
