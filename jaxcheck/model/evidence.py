"""Evidence that JAX will go wrong, as the default profile asks for it (SPEC 3, "Profiles").

- *stale* (or, from JAX 0.11 on for a value-hashed key, *changed key*): the
  traced code reads state of the static object, and that state changes after
  the object became static, on that object: a write outside construction
  that can run after the first call (in a method of its class: its API), or
  an in-place change of a container it holds; state held by objects in its
  fields counts, reported at the outermost static object;
- *recompiles*: equal objects that hash by identity reach the cache more than
  once: built in a loop, in code that runs again and again, or at several
  places with the same arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from jaxcheck import facts as f
from jaxcheck.facts import Ref
from jaxcheck.model.jax_api import MUTATORS
from jaxcheck.model.project import Model
from jaxcheck.model.state import Chain, Change, Reads
from jaxcheck.model.static_uses import CALL_SITE, StaticUse

_NESTING = 3  # how many fields deep nested state is followed


@dataclass(frozen=True)
class Staleness:
    """A change to state the traced code reads."""

    change: Change
    read: Chain  # the state, from the static object: ("solver", "dt")
    holder: str  # the class whose instance is changed (the static one, or one held in its fields)


def later_changes(model: Model, cls: str, reads: Reads, uses: list[StaticUse], depth: int = _NESTING) -> list[Staleness]:
    """The changes, after the object became static, to state of `cls` that
    `reads` reads, directly or through the objects its fields hold."""
    found = [
        Staleness(change, change.path, cls)
        for change in model.state.changes(cls)
        if reads.include(change.path)
        and real_change(model, cls, change)
        and _after_some_use(model, change, uses)
    ]
    if depth:
        for field in model.classes.fields(cls):
            inner_reads = _through(reads, field.name)
            if inner_reads is None:
                continue
            for inner in model.values.held_classes(field):
                for nested in later_changes(model, inner, inner_reads, [], depth - 1):
                    found.append(Staleness(nested.change, (field.name, *nested.read), nested.holder))
    return found


def real_change(model: Model, cls: str, change: Change) -> bool:
    """A mutating call changes something only on a container or an array
    (`self.opt.update(...)` is a method of whatever `opt` is); a change inside a
    method of the class counts when that method can run after the object is
    in use (see `runs_after_setup`)."""
    if change.method and not model.values.container_kind(cls, change.path):
        return False
    return not change.inside or runs_after_setup(model, cls, change.function)


def runs_after_setup(model: Model, cls: str, method: str) -> bool:
    """A method of `cls` the project calls outside the building of objects (any
    class's `__init__`, `setup` and their helpers, a classmethod factory), or,
    never called in the project, one a library offers its users: public, on a
    public class of a public module."""
    function = model.symbols.functions.get(method)
    if function is None:
        return True
    # Calls on an object of the class; and on one whose class is not known,
    # unless the name is one every container has (`update`, `append`).
    calls = []
    for caller, ref in model.functions.method_calls.get(function.name, ()):
        classes = model.symbols.instance_classes(ref.parent)
        if any(cls in model.symbols.mro(other) for other in classes) or not classes and function.name not in MUTATORS:
            calls.append(caller)
    if not calls:
        return _public(model, cls) and not function.name.startswith("_")
    return any(not _building(model, caller) for caller in calls)


def _public(model: Model, cls: str) -> bool:
    """A class users of a library reach: no name on its way starts with `_`."""
    module = model.symbols.module_of(cls).module
    return not any(part.startswith("_") for part in cls.split(".") if part != "__init__") and bool(module)


def _building(model: Model, caller: str) -> bool:
    """Code that builds an object: a construction method or its helper, or a classmethod/staticmethod factory."""
    function = model.symbols.functions.get(caller)
    if function is None or not function.class_qualname:
        return False
    if not function.is_instance_method:
        return True
    return function.name in model.classes.construction_methods(function.class_qualname)


def _through(reads: Reads, name: str) -> Reads | None:
    """What is read of the object in field `name`: the rest of the chains through it."""
    if reads.opaque:
        return Reads(opaque=True)
    rest = {chain[1:] for chain in reads.chains if chain[0] == name}
    if not rest:
        return None
    if () in rest:  # the object itself is read, passed on or called: all of it counts
        return Reads(opaque=True)
    return Reads(frozenset(rest))


def _after_some_use(model: Model, change: Change, uses: list[StaticUse]) -> bool:
    """The change can run after one of the uses made the object static: it is
    in a method of the class (its API), or outside, and neither before the
    use in the same function nor made on another object than the one used."""
    if change.inside or not uses:
        return True
    return any(not _precedes(change, use) and not different_objects(model, change.target, use) for use in uses)


def _precedes(change: Change, use: StaticUse) -> bool:
    """The change comes before the static use in the same function: it cannot make that call stale."""
    return change.file == use.path and change.function == use.enclosing and change.location < use.location


def different_objects(model: Model, target: Ref, use: StaticUse) -> bool:
    """The change is made on a name bound to a new object, and the static use
    passes another name bound to a new object: two objects, not one."""
    value = use.outermost.value if use.via != CALL_SITE else use.value
    if value is None or value.kind != f.NAME or value.ref is None:
        return False
    return distinct(model, target, value.ref)


def distinct(model: Model, one: Ref, other: Ref) -> bool:
    """Two names each bound only to objects built right there (`a = C()`, `b = C()`)."""
    one, other = model.symbols.canonical(one), model.symbols.canonical(other)
    if one == other or one.attributes or other.attributes:
        return False
    return _fresh(model, one) and _fresh(model, other)


def _fresh(model: Model, ref: Ref) -> bool:
    bindings = model.symbols.bindings.get(ref, ())
    return bool(bindings) and all(model.symbols.constructed_class(binding.value) for binding in bindings)


def built_repeatedly(model: Model, cls: str, uses: list[StaticUse]) -> str:
    """How equal objects of `cls` reach static positions again and again, for a
    message ("built in a loop at a.py:12"); "" when nothing shows they do."""
    for path, call in model.values.constructions(cls):
        if runs_repeatedly(model, path, call.location):
            return f"built in code that runs again and again ({path}:{call.location.line})"
    for use in uses:
        value = use.outermost.value
        if value is not None and value.kind == f.CALL and runs_repeatedly(model, use.outermost.path, value.location):
            return f"built at every call ({use.outermost.path}:{value.location.line})"
    sites: dict[tuple, list[tuple[str, f.Value]]] = {}
    for path, call in model.values.constructions(cls):
        sites.setdefault(_arguments_key(call), []).append((path, call))
    for key, built in sites.items():
        if key is not None and len(built) > 1:
            (path, first), (other_path, second) = built[:2]
            return f"built equal at {path}:{first.location.line} and {other_path}:{second.location.line}"
    return ""


def runs_repeatedly(model: Model, path: str, location: f.Location) -> bool:
    """A call made in a loop, or in a function the project calls again and again."""
    module = model.symbols.modules[path]
    if location in module.repeated:
        return True
    function = _enclosing(model, path, location)
    return bool(function) and function in model.functions.called_repeatedly


def _enclosing(model: Model, path: str, location: f.Location) -> str:
    module = model.symbols.modules[path]
    for function, call in module.calls:
        if call.location == location:
            return function
    for binding in module.bindings:
        if binding.value.location == location:
            return binding.ref.function
    return ""


def _arguments_key(call: f.Value) -> tuple | None:
    """The arguments of a construction when all are literals (so two calls build equal objects)."""
    parts = []
    for value in call.args:
        if value.kind != f.CONSTANT:
            return None
        parts.append(repr(value.literal))
    for key, value in call.keywords:
        if value.kind != f.CONSTANT:
            return None
        parts.append(f"{key}={value.literal!r}")
    return tuple(parts)
