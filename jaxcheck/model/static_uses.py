"""Where values become static: transform applications matched to the values they receive.

A value is static when a transform's static parameters name it (SPEC 2). Its
class is read from the parameter's annotation, from the arguments of the
transformed function's call sites, or is the method's own class for `self`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Callable

from jaxcheck import facts as f
from jaxcheck.model.classes import Field
from jaxcheck.model.functions import Compiled
from jaxcheck.model.jax_api import GRAPH_NODES, PARTIAL
from jaxcheck.model.state import Reads, State
from jaxcheck.model.symbols import Symbols
from jaxcheck.model.transforms import StaticSpec

SELF, ANNOTATION, CALL_SITE, FIELD = "self", "annotation", "call", "field"
_IMMUTABLE_COPIES = frozenset({"builtins.frozenset", "builtins.tuple"})
_TRACING_METHODS = frozenset({"lower", "trace", "eval_shape"})  # of a jitted function: they key its cache


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
    method: str = ""  # a bound method passed as the value: its name (the class is its owner's)
    element: bool = False  # an element of a static tuple or frozenset: its type is not part of the key
    leaf_of: str = ""  # a static leaf of a pytree or graph node passed (the class holding it), under filter_jit or nnx.jit
    partitioned: bool = False  # a half of `eqx.partition(obj, ...)`: its array leaves were replaced by None

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


# The static leaves of an object a framework splits: (field, the class of a
# plain object it holds, or the owner of a bound method, with the method).
Leaves = Callable[[str], list[tuple[Field, str, str]]]


@dataclass(frozen=True)
class CallSite:
    """A call that runs a transformed function, with 1 in `shift` when `self` is implicit."""

    path: str
    enclosing: str  # the function the call is in ("" at module level)
    call: f.Value  # the call, with a `partial(step, cfg=cfg)` read as `step(..., cfg=cfg)`
    target: _Target
    shift: int

    def static_arguments(self) -> list[tuple[str, f.Value]]:
        """The arguments at static positions, by parameter name."""
        return [(name, value) for name, value, static in _arguments(self.call, self.target, self.shift) if static]


@dataclass(frozen=True)
class Sites:
    """Every transform applied to a project function, as targets, with the calls that run them."""

    declared: tuple[_Target, ...]  # targets whose definition is seen, in order
    calls: tuple[CallSite, ...]


def find_sites(symbols: Symbols, compiled: list[Compiled]) -> Sites:
    """Match each transform application to the calls that run it.

    `compiled` is every transform applied to a project function (the built-in
    transforms and the configured ones).
    """
    declared: list[_Target] = []
    direct: dict[str, list[_Target]] = defaultdict(list)  # global name a call names -> targets
    methods: dict[str, list[_Target]] = defaultdict(list)  # method name -> targets
    immediate: dict[tuple, _Target] = {}  # (path, key) of a `jit(fn, ...)` call -> its target
    bound: dict[f.Ref, list[_Target]] = defaultdict(list)  # a local a `jit(fn, ...)` is assigned to -> targets
    # A class whose body applies such a jit raises when it is defined: neither it nor its subclasses exist.
    broken = {
        item.function.class_qualname
        for item in compiled
        if item.call is None and item.application.spec is not None and item.function.class_qualname
        and _beyond_the_signature(_target(item.function, item.application.spec))
    }
    for item in compiled:
        if item.application.spec is None:
            continue
        function, call = item.function, item.call
        target = _target(function, item.application.spec)
        if _beyond_the_signature(target) or (
            broken and function.class_qualname and broken.intersection(symbols.mro(function.class_qualname))
        ):
            continue  # JAX raises at the `jit` itself (every release measured): nothing is ever cached
        declared.append(target)
        if call is None and function.is_instance_method:
            methods[function.name].append(target)
        elif call is None:
            direct[function.qualname].append(target)
        else:
            immediate[item.path, call.key] = target
            for name in symbols.bound_names(item.path, call):
                if name.is_local:
                    bound[name].append(target)
                else:
                    direct[name.name].append(target)
    # Only these calls can run a target (see `_runs` and `_callees`): a `partial`, a call of what a call
    # returns, one named like a bound target, a method or a tracing method, or one of a global target.
    candidates = symbols.calls.where(
        PARTIAL.__eq__,
        last={*methods, *_TRACING_METHODS, *(ref.last for ref in bound)},
        callees=direct,
        applied=True,
    )
    sites = []
    for path, enclosing, written in candidates:
        call = _runs(written)
        for target, shift in _callees(symbols, path, call, direct, bound, methods, immediate):
            sites.append(CallSite(path, enclosing, call, target, shift))
    return Sites(tuple(declared), tuple(sites))


def find_static_uses(symbols: Symbols, state: State, sites: Sites, leaves: Leaves | None = None) -> tuple[StaticUse, ...]:
    """Every static use in the project: declared at the definitions, and at call sites.

    `leaves` gives the static leaves of a pytree or graph node that equinox's
    filter transforms and `nnx.jit` split.
    """
    uses: list[StaticUse] = []
    for target in sites.declared:
        uses.extend(_declared_uses(symbols, state, target))
    callers = _Callers(symbols)
    for site in sites.calls:
        uses.extend(
            _call_site_uses(symbols, state, site.path, site.enclosing, site.call, site.target, site.shift, leaves, callers)
        )
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


def _beyond_the_signature(target: _Target) -> bool:
    """`static_argnums` naming a position the function does not have (and no
    `*args` to take it): "Jitted function has static_argnums=(0, 4), but only
    accepts 4 positional arguments"."""
    function = target.function
    if target.spec.transform.name != "jax.jit" or target.spec.bound or any(p.kind in ("vararg", "varkw") for p in function.parameters):
        return False
    count = len(function.positional)
    return any(not -count <= number < count for number in target.spec.argnums)


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
            # An object of a subclass that inherits the method is `self` too, and its methods are what `self.x()` runs.
            for sub in sorted(symbols.all_subclasses(cls)):
                if symbols.method(sub, function.name) is None:
                    reads = state.parameter_reads(function, name, sub)
                    yield StaticUse(path, target.spec.location, function.qualname, name, target.spec, SELF, sub, reads)
            continue
        for cls in symbols.annotated_classes(parameter):
            reads = state.parameter_reads(function, name, cls)
            yield StaticUse(path, target.spec.location, function.qualname, name, target.spec, ANNOTATION, cls, reads)


def _runs(call: f.Value) -> f.Value:
    """The call of a jitted function that `call` stands for: each call of
    `functools.partial(step, cfg=cfg)` is `step(..., cfg=cfg)`."""
    if call.dotted == PARTIAL and call.args and call.args[0].kind in (f.NAME, f.CALL):
        function = call.args[0]
        if function.kind == f.NAME:
            return f.Value(f.CALL, call.location, function.ref, call.args[1:], call.keywords)
        return f.Value(f.CALL, call.location, None, call.args[1:], call.keywords, func=function)
    return call


def _callees(symbols: Symbols, path: str, call: f.Value, direct, bound, methods, immediate):
    """The transformed functions a call runs, with 1 when `self` is implicit."""
    if call.func is not None and (path, call.func.key) in immediate:
        yield immediate[path, call.func.key], 0
        return
    if call.ref is None:
        return
    # `step.lower(x, cfg=cfg)` (or `.trace`, `.eval_shape`) traces `step(x, cfg=cfg)` and keys the same cache.
    traced = call.ref.parent if call.ref.last in _TRACING_METHODS else None
    if traced is not None and traced.is_local:
        yield from ((target, 0) for target in bound.get(traced, ()))
    elif traced is not None:
        yield from ((target, 0) for target in direct.get(symbols.canonical(traced).name, ()))
    if call.ref.is_local:
        yield from ((target, 0) for target in bound.get(call.ref, ()))
    else:
        # `Model.apply(x)` of a jitted classmethod passes the class first, implicitly.
        yield from ((target, int(target.function.is_classmethod)) for target in direct.get(symbols.canonical(call.ref).name, ()))
    owner = call.ref.parent
    if owner is not None and call.ref.last in methods:
        for cls in symbols.instance_classes(owner):
            for target in methods[call.ref.last]:
                if target.function.class_qualname == cls:
                    yield target, 1


def _arguments(call: f.Value, target: _Target, shift: int, every: bool = False) -> list[tuple[str, f.Value, bool]]:
    """The arguments a call passes, by parameter name, with whether each is at
    a static position: those that are, and under a transform that splits
    graph nodes (`nnx.jit`), or with `every`, every other one too. `**{...}`
    and `**dict(...)` give their keys."""
    function = target.function
    transform = target.spec.transform
    positional = function.positional
    shift += target.spec.bound
    count = len(call.args) + shift
    found: list[tuple[str, f.Value, bool]] = []
    for position, value in enumerate(call.args, start=shift):
        if value.kind == f.OTHER and value.literal == "*":
            break
        static = transform.all_static or position in target.argnums or position - count in target.argnums
        if static or every or transform.keys_node_attributes:
            found.append((positional[position] if position < len(positional) else f"argument {position}", value, static))
    for key, value in _keywords(call):
        static = transform.all_static or key in target.argnames
        if static or every or transform.keys_node_attributes:
            found.append((key, value, static))
    return found


def _keywords(call: f.Value) -> list[tuple[str, f.Value]]:
    """A call's keyword arguments, with those `**{"cfg": cfg}` and `**dict(cfg=cfg)` spell out."""
    found = []
    for key, value in call.keywords:
        if key != "**":
            found.append((key, value))
        elif value.kind == f.DICT:
            found.extend(value.keywords)
        elif value.kind == f.CALL and value.dotted == "builtins.dict" and not value.args:
            found.extend(item for item in value.keywords if item[0] != "**")
    return found


class _Callers:
    """What the callers of a plain function pass it, indexed on first use: a
    helper that hands its parameter on to a jitted function makes static what
    its own callers pass (`def run(x, cfg): return step(x, cfg=cfg)`)."""

    def __init__(self, symbols: Symbols) -> None:
        self.symbols = symbols
        self._calls: dict[str, list[f.Value]] = {}  # a function -> its calls

    def passed(self, ref: f.Ref) -> list[f.Value]:
        """The arguments the callers of `ref.function` give for the parameter `ref` names."""
        function = self.symbols.functions.get(ref.function)
        if function is None or function.is_instance_method or function.is_classmethod or ref.attributes:
            return []  # a method's callers pass its first parameter implicitly
        if not any(parameter.name == ref.name for parameter in function.parameters):
            return []  # a local of the function, not a parameter
        calls = self._calls.get(function.qualname)
        if calls is None:
            calls = self._calls[function.qualname] = [call for _, _, call in self.symbols.calls.where(callees=(function.qualname,))]
        positional = function.positional
        position = positional.index(ref.name) if ref.name in positional else None
        found = []
        for call in calls:
            if position is not None and position < len(call.args) and not any(
                arg.kind == f.OTHER and arg.literal == "*" for arg in call.args[: position + 1]
            ):
                found.append(call.args[position])
            found.extend(value for key, value in call.keywords if key == ref.name)
        return found


def _call_site_uses(
    symbols: Symbols,
    state: State,
    path: str,
    enclosing: str,
    call: f.Value,
    target: _Target,
    shift: int,
    leaves: Leaves | None,
    callers: _Callers,
):
    function = target.function
    transform = target.spec.transform
    all_static = transform.all_static
    for name, argument, static in _arguments(call, target, shift, every=bool(symbols.registered_static)):
        known = any(p.name == name for p in function.parameters)
        for value, element in _leaves(symbols, argument, all_static) if static else [(argument, False)]:
            if all_static and value.kind == f.OTHER:
                continue
            common = dict(
                path=path, location=value.location, function=function.qualname, parameter=name,
                spec=target.spec, via=CALL_SITE, enclosing=enclosing, value=value, call=call.location, element=element,
            )
            if not static or all_static:
                # Only transforms that split their arguments (equinox's, `nnx.jit`) key on the leaves.
                splits = all_static or transform.keys_node_attributes
                split = _split_classes(symbols, value, transform) if splits else []
                if split:
                    for cls in split:
                        yield from _leaf_uses(symbols, state, cls, leaves, common)
                    continue
                if not static:
                    # An object of a class `register_static` registers is static at any position.
                    for cls in symbols.value_classes(value) if symbols.registered_static else ():
                        if cls in symbols.registered_static:
                            reads = state.parameter_reads(function, name, cls) if known else Reads(opaque=True)
                            yield StaticUse(class_qualname=cls, reads=reads, **common)
                    continue
            whole = known and not element
            unhashable = symbols.unhashable_kind(value) if not all_static else ""
            if unhashable:
                reads = state.parameter_reads(function, name) if whole else Reads(opaque=True)
                yield StaticUse(unhashable=unhashable, reads=reads, **common)
                continue
            methods = symbols.bound_methods(value) or symbols.stored_bound_methods(value)
            for cls, method in methods:
                yield StaticUse(class_qualname=cls, reads=state.method_reads(cls, method), method=method.name, **common)
            if methods:
                continue
            classes = symbols.value_classes(value)
            if not classes and value.kind == f.NAME and value.ref is not None and value.ref.function == enclosing:
                # A parameter of the enclosing function: what its callers pass, one call up.
                classes = tuple(dict.fromkeys(cls for given in callers.passed(value.ref) for cls in symbols.value_classes(given)))
            partitioned = symbols.is_partition_half(value)
            for cls in classes:
                reads = state.parameter_reads(function, name, cls) if whole else Reads(opaque=True)
                yield StaticUse(class_qualname=cls, reads=reads, partitioned=partitioned, **common)


def _split_classes(symbols: Symbols, value: f.Value, transform) -> list[str]:
    """The project classes of a value the transform splits into leaves rather
    than hashing whole: under equinox's filter transforms a pytree (eqx.Module,
    flax.struct, a NamedTuple, a registered class); under `nnx.jit` a graph node."""
    classes = symbols.value_classes(value)
    if transform.all_static:
        return [cls for cls in classes if symbols.is_pytree(cls)]
    return [cls for cls in classes if symbols.inherits(cls, GRAPH_NODES)]


def _leaf_uses(symbols: Symbols, state: State, cls: str, leaves: Leaves | None, common: dict):
    """Each plain object a split value holds is a static leaf, keyed by its own hash."""
    for field, inner, method in leaves(cls) if leaves is not None else ():
        # The object passed is the holder, not the leaf: which object changes is not followed.
        use = dict(common, parameter=f"{common['parameter']}.{field.name}", value=None)
        if method:
            reads = state.method_reads(inner, symbols.find_method(inner, method))
            yield StaticUse(class_qualname=inner, reads=reads, method=method, leaf_of=cls, **use)
        else:
            yield StaticUse(class_qualname=inner, reads=Reads(opaque=True), leaf_of=cls, **use)


def _leaves(symbols: Symbols, value: f.Value, all_static: bool) -> list[tuple[f.Value, bool]]:
    """The objects JAX hashes and compares for one static argument, with whether
    each is an element: the value, or the elements of the tuple or frozenset it
    is (a tuple hashes and compares through its elements). equinox's filter
    transforms split lists and dicts into leaves too."""
    displays = (f.TUPLE, f.LIST, f.DICT) if all_static else (f.TUPLE,)
    shown = value
    if value.kind == f.NAME and value.ref is not None and not value.ref.attributes:
        bindings = symbols.bindings.get(symbols.canonical(value.ref), ())
        if len(bindings) == 1:
            shown = bindings[0].value
    if shown.kind == f.CALL and shown.dotted in _IMMUTABLE_COPIES and len(shown.args) == 1:
        if shown.args[0].kind in (f.TUPLE, f.LIST, f.SET):
            return _elements(value, shown.args[0])
    if shown.kind in displays:
        return _elements(value, shown)
    return [(value, False)]


def _elements(value: f.Value, display: f.Value) -> list[tuple[f.Value, bool]]:
    elements = [*display.args, *(item for _, item in display.keywords)]
    if not elements or any(element.kind == f.OTHER and element.literal == "*" for element in elements):
        return [(value, False)]
    return [(element, True) for element in elements]
