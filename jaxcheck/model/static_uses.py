"""Where values become static: transform applications matched to the values they receive.

A value is static when a transform's static parameters name it (SPEC 2). Its
class is read from the parameter's annotation, from the arguments of the
transformed function's call sites, or is the method's own class for `self`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from jaxcheck import facts as f
from jaxcheck.model.jax_api import TRANSFORMS
from jaxcheck.model.state import Reads, State
from jaxcheck.model.symbols import Symbols
from jaxcheck.model.transforms import StaticSpec, application

SELF, ANNOTATION, CALL_SITE, FIELD = "self", "annotation", "call", "field"


@dataclass(frozen=True)
class StaticUse:
    """One way a value reaches a static position."""

    path: str  # the file the use is in
    location: f.Location
    function: str  # qualname of the transformed function
    parameter: str  # the static parameter, or "argument N" past the named ones
    spec: StaticSpec
    via: str  # SELF, ANNOTATION, CALL_SITE or FIELD
    class_qualname: str = ""  # the project class whose instance is static, if known
    reads: Reads = Reads()  # what the transformed function reads of the value
    unhashable: str = ""  # "list", "dict", "set", "bytearray" or "array" for such a value
    value: f.Value | None = None  # the argument, at a call site
    outer: StaticUse | None = None  # for FIELD: the use of the static object that holds the value
    holder: str = ""  # for FIELD: that object's class
    enclosing: str = ""  # the function the call site is in ("" at module level)
    call: f.Location | None = None  # at a call site, where the call is (a loop repeats the call)

    @property
    def reads_state(self) -> bool:
        return self.reads.opaque or bool(self.reads.chains)

    @property
    def outermost(self) -> StaticUse:
        """For an object held in a field of a static one, the use of the outermost static object."""
        use = self
        while use.outer is not None:
            use = use.outer
        return use


@dataclass(frozen=True)
class _Target:
    """A transformed function and its static positions, completed as JAX completes them."""

    function: f.FunctionFacts
    spec: StaticSpec
    argnums: tuple[int, ...]
    argnames: tuple[str, ...]


def find_static_uses(symbols: Symbols, state: State, table: dict | None = None) -> tuple[StaticUse, ...]:
    """Every static use in the project: declared at the definitions, and at call sites.

    `table` is the transforms known (the built-in ones and the configured ones).
    """
    table = TRANSFORMS if table is None else table
    uses: list[StaticUse] = []
    direct: dict[str, list[_Target]] = defaultdict(list)  # global name a call names -> targets
    methods: dict[str, list[_Target]] = defaultdict(list)  # method name -> targets
    for function in symbols.functions.values():
        for decorator in function.decorators:
            applied = application(decorator, table)
            if applied is None or applied.spec is None or applied.target is not None:
                continue
            target = _target(function, applied.spec)
            uses.extend(_declared_uses(symbols, state, target))
            if function.is_instance_method:
                methods[function.name].append(target)
            else:
                direct[function.qualname].append(target)
    immediate: dict[tuple, _Target] = {}  # (path, key) of a `jit(fn, ...)` call -> its target
    bound: dict[f.Ref, list[_Target]] = defaultdict(list)  # a local a `jit(fn, ...)` is assigned to -> targets
    for module in symbols.modules.values():
        for _, call in module.calls:
            applied = application(call, table)
            if applied is None or applied.spec is None or applied.target is None:
                continue
            function = symbols.lookup_function(applied.target.ref) if applied.target.kind == f.NAME else None
            if function is None:
                continue
            target = _target(function, applied.spec)
            uses.extend(_declared_uses(symbols, state, target))
            immediate[module.path, call.key] = target
            for name in symbols.bound_names(module.path, call):
                if name.is_local:
                    bound[name].append(target)
                else:
                    direct[name.name].append(target)
    for module in symbols.modules.values():
        for enclosing, call in module.calls:
            for target, shift in _callees(symbols, module.path, call, direct, bound, methods, immediate):
                uses.extend(_call_site_uses(symbols, state, module.path, enclosing, call, target, shift))
    return tuple(uses)


def held_use(outer: StaticUse, holder: str, field, inner: str) -> StaticUse:
    """The use of a class whose object sits in a field of a static object: what
    the compiled function reads of it is not followed, so all of it counts."""
    return StaticUse(
        field.path, field.location, outer.function, field.name, outer.spec, FIELD, inner,
        reads=Reads(opaque=True), outer=outer, holder=holder,
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


def _declared_uses(symbols: Symbols, state: State, target: _Target):
    """Static uses visible at the definition: `self`, and annotated parameters."""
    function = target.function
    path = symbols.path_of[function.qualname]
    for name in _static_parameters(target):
        parameter = next(p for p in function.parameters if p.name == name)
        if function.is_instance_method and parameter is function.parameters[0]:
            cls = function.class_qualname
            reads = state.parameter_reads(function, name, cls)
            yield StaticUse(path, target.spec.location, function.qualname, name, target.spec, SELF, cls, reads)
            continue
        for cls in symbols.annotated_classes(parameter):
            reads = state.parameter_reads(function, name, cls)
            yield StaticUse(path, target.spec.location, function.qualname, name, target.spec, ANNOTATION, cls, reads)


def _callees(symbols: Symbols, path: str, call: f.Value, direct, bound, methods, immediate):
    """The transformed functions a call runs, with 1 when `self` is implicit."""
    if call.func is not None and (path, call.func.key) in immediate:
        yield immediate[path, call.func.key], 0
        return
    if call.ref is None:
        return
    if call.ref.is_local:
        yield from ((target, 0) for target in bound.get(call.ref, ()))
    else:
        yield from ((target, 0) for target in direct.get(symbols.canonical(call.ref).name, ()))
    owner = call.ref.parent
    if owner is not None and call.ref.last in methods:
        for cls in symbols.instance_classes(owner):
            for target in methods[call.ref.last]:
                if target.function.class_qualname == cls:
                    yield target, 1


def _arguments(call: f.Value, target: _Target, shift: int) -> list[tuple[str, f.Value]]:
    """The arguments a call passes at the target's static positions, by parameter name."""
    function = target.function
    positional = function.positional
    count = len(call.args) + shift
    found: list[tuple[str, f.Value]] = []
    for position, value in enumerate(call.args, start=shift):
        if value.kind == f.OTHER and value.literal == "*":
            break
        if target.spec.transform.all_static or position in target.argnums or position - count in target.argnums:
            found.append((positional[position] if position < len(positional) else f"argument {position}", value))
    for key, value in call.keywords:
        if key != "**" and (target.spec.transform.all_static or key in target.argnames):
            found.append((key, value))
    return found


def _call_site_uses(symbols: Symbols, state: State, path: str, enclosing: str, call: f.Value, target: _Target, shift: int):
    function = target.function
    all_static = target.spec.transform.all_static
    for name, value in _arguments(call, target, shift):
        if all_static and value.kind == f.OTHER:
            continue
        known = any(p.name == name for p in function.parameters)
        common = dict(
            path=path, location=value.location, function=function.qualname, parameter=name,
            spec=target.spec, via=CALL_SITE, enclosing=enclosing, value=value, call=call.location,
        )
        unhashable = symbols.unhashable_kind(value) if not all_static else ""
        if unhashable:
            reads = state.parameter_reads(function, name) if known else Reads(opaque=True)
            yield StaticUse(unhashable=unhashable, reads=reads, **common)
            continue
        cls = symbols.constructed_class(value)
        classes = (cls,) if cls else symbols.instance_classes(value.ref) if value.kind == f.NAME and value.ref else ()
        for cls in classes:
            # equinox's filter_jit splits a pytree (eqx.Module, flax.struct, a
            # NamedTuple, a registered class) into leaves, and a list or dict
            # too: only an object of a plain class is a static leaf.
            if all_static and symbols.is_pytree(cls):
                continue
            reads = state.parameter_reads(function, name, cls) if known else Reads(opaque=True)
            yield StaticUse(class_qualname=cls, reads=reads, **common)
