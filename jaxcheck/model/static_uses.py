"""Where values become static: transform applications matched to the values they receive.

A value is static when a transform's static parameters name it (SPEC 2). Its
class is read from the parameter's annotation, from the arguments of the
transformed function's call sites, or is the method's own class for `self`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from jaxcheck import facts as f
from jaxcheck.model.symbols import Index
from jaxcheck.model.transforms import TRANSFORMS, StaticSpec, application

SELF, ANNOTATION, CALL_SITE, FIELD = "self", "annotation", "call", "field"
# Passing a value to these reads nothing of its state.
NOT_READING = frozenset({"builtins.type", "builtins.isinstance", "builtins.issubclass", "builtins.id", "builtins.callable"})


def uses_opaquely(use: f.ParameterUse) -> bool:
    """The value is used in ways not followed: stored, returned, or passed to
    something that may read any of it."""
    return use.opaque or any(ref not in NOT_READING for ref in use.passed_to)


@dataclass(frozen=True)
class StaticUse:
    """One way a value reaches a static position."""

    path: str  # the file the use is in
    location: f.Location
    function: str  # qualname of the transformed function
    parameter: str  # the static parameter, or "argument N" past the named ones
    spec: StaticSpec
    via: str  # SELF, ANNOTATION or CALL_SITE
    class_qualname: str = ""  # the project class whose instance is static, if known
    reads: tuple[str, ...] = ()  # attributes the function reads on the value
    reads_opaque: bool = False  # the function also uses the value in ways not followed
    unhashable: str = ""  # "list", "dict", "set", "bytearray" or "array" for such a value
    value: f.Value | None = None  # the argument, at a call site
    outer: StaticUse | None = None  # for FIELD: the use of the static class that holds the value
    holder: str = ""  # for FIELD: that class's qualname
    enclosing: str = ""  # the function the call site is in ("" at module level)

    @property
    def reads_state(self) -> bool:
        return self.reads_opaque or bool(self.reads)


@dataclass(frozen=True)
class _Target:
    """A transformed function and its static positions, completed as JAX completes them."""

    function: f.FunctionFacts
    spec: StaticSpec
    argnums: tuple[int, ...]
    argnames: tuple[str, ...]


def find_static_uses(index: Index, table: dict | None = None) -> tuple[StaticUse, ...]:
    """Every static use in the index: declared at the definitions, and at call sites.

    `table` is the transforms known (the built-in ones and the configured ones).
    """
    table = TRANSFORMS if table is None else table
    uses: list[StaticUse] = []
    direct: dict[str, list[_Target]] = defaultdict(list)  # ref a call names -> targets
    methods: dict[str, list[_Target]] = defaultdict(list)  # method name -> targets
    for function in index.functions.values():
        for decorator in function.decorators:
            applied = application(decorator, table)
            if applied is None or applied.spec is None or applied.target is not None:
                continue
            target = _target(function, applied.spec)
            uses.extend(_declared_uses(index, target))
            if function.is_instance_method:
                methods[function.name].append(target)
            else:
                direct[function.qualname].append(target)
    immediate: dict[tuple, _Target] = {}  # (path, key) of a `jit(fn, ...)` call -> its target
    for module in index.modules.values():
        for _, call in module.calls:
            applied = application(call, table)
            if applied is None or applied.spec is None or applied.target is None:
                continue
            function = index.lookup_function(applied.target.ref) if applied.target.kind == f.NAME else None
            if function is None:
                continue
            target = _target(function, applied.spec)
            uses.extend(_declared_uses(index, target))
            immediate[module.path, call.key] = target
            for name in index.bound_names(module.path, call):
                direct[name].append(target)
    for module in index.modules.values():
        for enclosing, call in module.calls:
            for target, shift in _callees(index, module.path, call, direct, methods, immediate):
                uses.extend(_call_site_uses(index, module.path, enclosing, call, target, shift))
    return tuple(uses)


def held_use(outer: StaticUse, holder: str, field, inner: str) -> StaticUse:
    """The use of a class whose object sits in a field of a static class: what
    the compiled function reads of it is not followed, so all of it counts."""
    return StaticUse(
        field.path, field.location, outer.function, field.name, outer.spec, FIELD, inner,
        reads_opaque=True, outer=outer, holder=holder,
    )


def _target(function: f.FunctionFacts, spec: StaticSpec) -> _Target:
    """Complete argnums from argnames and back, as JAX does from the signature."""
    positional = function.positional
    argnums, argnames = spec.argnums, spec.argnames
    if argnums and not argnames:
        argnames = tuple(positional[i] for i in argnums if 0 <= i < len(positional))
    elif argnames and not argnums:
        argnums = tuple(i for i, name in enumerate(positional) if name in argnames)
    return _Target(function, spec, argnums, argnames)


def _filtered_uses(index: Index, path: str, enclosing: str, call: f.Value, target: _Target, shift: int):
    """equinox's filter_jit: every argument is split into array leaves (traced)
    and the rest (static). An object of a plain class is a leaf, so static;
    a pytree (eqx.Module, flax.struct, NamedTuple, a registered class) is split,
    and a list or dict is a pytree too, never an unhashable static value."""
    function = target.function
    positional = function.positional
    arguments = [
        (positional[position] if position < len(positional) else f"argument {position}", value)
        for position, value in enumerate(call.args, start=shift)
    ] + list(call.keywords)
    for name, value in arguments:
        if value.kind == f.OTHER or name == "**":
            continue
        known = any(p.name == name for p in function.parameters)
        reads, opaque = reads_of(index, function, name) if known else ((), True)
        cls = index.constructed_class(value)
        classes = (cls,) if cls else index.instance_classes(value.ref) if value.kind == f.NAME else ()
        for cls in classes:
            if not index.is_pytree(cls):
                yield StaticUse(
                    path, value.location, function.qualname, name, target.spec, CALL_SITE, cls,
                    reads, opaque, enclosing=enclosing, value=value,
                )


def _static_parameters(target: _Target) -> list[str]:
    function = target.function
    positional = function.positional
    has_vararg = any(p.kind == "vararg" for p in function.parameters)
    names = [name for name in target.argnames if any(p.name == name for p in function.parameters)]
    for number in target.argnums:
        if number < 0 and not has_vararg:
            number += len(positional)
        if 0 <= number < len(positional) and positional[number] not in names:
            names.append(positional[number])
    return names


def reads_of(index: Index, function: f.FunctionFacts, parameter: str, self_class: str = "") -> tuple[tuple[str, ...], bool]:
    """Attributes read on `parameter`, through the `self.helper()` methods it calls."""
    use = function.parameter_use(parameter)
    if use is None:
        return (), False
    attributes, opaque = set(use.attributes), uses_opaquely(use)
    if self_class:
        pending, seen = list(use.attributes), set()
        while pending:
            name = pending.pop()
            helper = index.find_method(self_class, name)
            if name in seen or helper is None or not helper.is_instance_method:
                continue
            seen.add(name)
            helper_use = helper.parameter_use(helper.parameters[0].name)
            if helper_use is not None:
                attributes.update(helper_use.attributes)
                opaque = opaque or uses_opaquely(helper_use)
                pending.extend(helper_use.attributes)
    return tuple(sorted(attributes)), opaque


def _declared_uses(index: Index, target: _Target):
    """Static uses visible at the definition: `self`, and annotated parameters."""
    function = target.function
    path = index.path_of[function.qualname]
    for name in _static_parameters(target):
        parameter = next(p for p in function.parameters if p.name == name)
        if function.is_instance_method and parameter is function.parameters[0]:
            reads, opaque = reads_of(index, function, name, function.class_qualname)
            yield StaticUse(
                path, target.spec.location, function.qualname, name, target.spec, SELF,
                function.class_qualname, reads, opaque,
            )
            continue
        for ref in index.annotated_classes(parameter):
            reads, opaque = reads_of(index, function, name)
            yield StaticUse(
                path, target.spec.location, function.qualname, name, target.spec, ANNOTATION,
                ref, reads, opaque,
            )


def _callees(index: Index, path: str, call: f.Value, direct, methods, immediate):
    """The transformed functions a call runs, with 1 when `self` is implicit."""
    if call.func is not None and (path, call.func.key) in immediate:
        yield immediate[path, call.func.key], 0
        return
    for target in direct.get(index.canonical(call.ref), ()):
        yield target, 0
    base, _, name = call.ref.rpartition(".")
    if base and name in methods:
        for cls in index.instance_classes(base):
            for target in methods[name]:
                if target.function.class_qualname == cls:
                    yield target, 1


def _call_site_uses(index: Index, path: str, enclosing: str, call: f.Value, target: _Target, shift: int):
    if target.spec.transform.all_static:
        yield from _filtered_uses(index, path, enclosing, call, target, shift)
        return
    function = target.function
    positional = function.positional
    count = len(call.args) + shift
    arguments: list[tuple[str, f.Value]] = []
    for position, value in enumerate(call.args, start=shift):
        if value.ref == "*" and value.kind == f.OTHER:
            break
        if position in target.argnums or position - count in target.argnums:
            name = positional[position] if position < len(positional) else f"argument {position}"
            arguments.append((name, value))
    for key, value in call.keywords:
        if key in target.argnames:
            arguments.append((key, value))
    for name, value in arguments:
        known = any(p.name == name for p in function.parameters)
        reads, opaque = reads_of(index, function, name) if known else ((), True)
        common = dict(
            path=path, location=value.location, function=function.qualname, parameter=name,
            spec=target.spec, via=CALL_SITE, reads=reads, reads_opaque=opaque, enclosing=enclosing, value=value,
        )
        unhashable = index.unhashable_kind(value)
        if unhashable:
            yield StaticUse(unhashable=unhashable, **common)
            continue
        cls = index.constructed_class(value)
        classes = (cls,) if cls else index.instance_classes(value.ref) if value.kind == f.NAME else ()
        for cls in classes:
            yield StaticUse(class_qualname=cls, **common)
