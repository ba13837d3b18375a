"""What a transformed function holds besides its arguments (the object of a bound method, the
objects and values a closure or the module holds), and what its traces read of them."""

from __future__ import annotations

import contextlib
import functools
import types

import numpy as np

import jax

from jaxcheck.watch.keys import MISSING, Key, resolve
from jaxcheck.watch.places import Site
from jaxcheck.watch.snapshot import is_plain_value, of_a_library, take


def code_of(fun):
    """The code a transformed callable runs, through `functools.wraps`, partials and bound methods."""
    seen = 0
    while seen < 8:
        seen += 1
        if isinstance(fun, types.MethodType):
            fun = fun.__func__
        elif isinstance(fun, functools.partial):
            fun = fun.func
        elif isinstance(fun, types.FunctionType):
            if getattr(fun, "__wrapped__", None) is not None and of_a_library(fun.__module__):  # JAX's own wrapper
                fun = fun.__wrapped__
                continue
            return fun.__code__
        elif getattr(fun, "__wrapped__", None) is not None:
            fun = fun.__wrapped__
        else:
            call = getattr(type(fun), "__call__", None)
            return getattr(call, "__code__", None)
    return None


def held_by(fun, here: Site) -> list[Key]:
    """What a traced function holds besides its arguments: the object of a bound method (JAX201),
    objects a closure holds (JAX203), data globals and closed-over values it reads (JAX204)."""
    found: list[Key] = []
    seen = 0
    current = fun
    while current is not None and seen < 8:
        seen += 1
        if isinstance(current, types.MethodType):
            owner = current.__self__
            if not isinstance(owner, type) and _user_object(owner):
                found.append(Key(owner, take(owner), "self", "self", here, name="self"))
            current = current.__func__
            continue
        if isinstance(current, functools.partial):
            current = current.func
            continue
        if isinstance(current, types.FunctionType):
            _closure_and_globals(current, here, found)
            inner = getattr(current, "__wrapped__", None)
            if inner is None:
                closure = [cell.cell_contents for cell in (current.__closure__ or ()) if _cell_full(cell)]
                inner = next((value for value in closure if isinstance(value, types.MethodType)), None)
            current = inner
            continue
        current = getattr(current, "__wrapped__", None)
    return found


def trace_recording(reference):
    """What a trace of the function reads of the objects it holds and of the static objects it is given."""
    state = reference()
    targets = {}
    if state is None:
        return _recording(targets)
    for key in state.baked:
        if key.origin in ("self", "closure"):
            if key.reads is None:
                key.reads = set()
            targets[id(key.obj)] = (key.obj, key.reads)
    for _, value in state.current:
        if is_plain_value(value):
            continue
        for number, obj in read_targets(value).items():
            targets.setdefault(number, (obj, state.reads_by_id.setdefault(number, set())))
    return _recording(targets)


def read_targets(value) -> dict:
    """The objects of a static value whose attribute reads are noted: the value, the object of a bound
    method, the items of a tuple or list."""
    found = {}
    for obj in (value, getattr(value, "__self__", None), *(value if isinstance(value, (tuple, list)) else ())):
        if obj is not None and not is_plain_value(obj) and not isinstance(obj, (type, types.MethodType, types.FunctionType)) \
                and isinstance(getattr(obj, "__dict__", None), dict):
            found[id(obj)] = obj
    return found


def only_read(key: Key) -> set | None:
    """The attributes of an object a function holds that its traces read, when known: the rest cannot
    make a stale result, and is not looked at on each call."""
    reads = key.reads
    if reads is None or "__dict__" in reads or key.origin not in ("self", "closure"):
        return None
    return reads


def quick(key: Key) -> tuple | None:
    """What a trace read of an object it holds, when that is a few plain values: compared as they are."""
    only = only_read(key)
    attributes = getattr(key.obj, "__dict__", None)
    if only is None or not isinstance(attributes, dict):
        return None
    names = tuple(sorted(name for name in only if name in attributes))
    values = tuple(attributes[name] for name in names)
    return (names, values) if all(is_plain_value(value) for value in values) else None


def was_read(key: Key, path: tuple) -> bool:
    """Whether a trace read the attribute that changed at `path` below the key (True when unknown)."""
    if not key.read_map:
        return True
    obj = key.obj
    for step in path:
        reads = key.read_map.get(id(obj))
        if reads is not None and step.startswith(".") and step[1:] not in reads and "__dict__" not in reads:
            return False
        obj = resolve(obj, (step,))
        if obj is MISSING:
            return True
    return True


@contextlib.contextmanager
def _recording(targets: dict):
    """While a function traces, note which attributes of the given objects it reads (`targets`: id ->
    (object, the set to add to)): a change to state no trace reads (a call counter) is no stale result."""
    if not targets:
        yield
        return
    patched = []
    for cls in {type(obj) for obj, _ in targets.values()}:
        own = cls.__dict__.get("__getattribute__")
        base = cls.__getattribute__

        def getattribute(self, name, _base=base):
            found = targets.get(id(self))
            if found is not None and found[0] is self:
                found[1].add(name)
            return _base(self, name)

        try:
            cls.__getattribute__ = getattribute
        except (TypeError, AttributeError):  # a class that cannot be patched: what its objects' traces read is unknown
            for obj, reads in targets.values():
                if type(obj) is cls:
                    reads.add("__dict__")
            continue
        patched.append((cls, own))
    try:
        yield
    finally:
        for cls, own in patched:
            if own is None:
                del cls.__getattribute__
            else:
                cls.__getattribute__ = own


def _cell_full(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


_PYTHON_AND_NUMPY = frozenset({"builtins", "numpy", "functools", "typing"})


def _of_a_library(module: str | None) -> bool:
    """Code of JAX, its libraries, NumPy or Python's own: not the program's."""
    return of_a_library(module) or (module or "").partition(".")[0] in _PYTHON_AND_NUMPY


def _user_object(value) -> bool:
    return hasattr(value, "__dict__") and not _of_a_library(type(value).__module__)


def _closure_and_globals(function: types.FunctionType, here: Site, found: list) -> None:
    code = function.__code__
    if _of_a_library(function.__module__):
        return
    written = _written(code)
    for name, cell in zip(code.co_freevars, function.__closure__ or ()):
        if not _cell_full(cell) or name in written:
            continue
        value = cell.cell_contents
        if isinstance(value, (types.FunctionType, types.MethodType, type, types.ModuleType)) or callable(value) and not _user_object(value):
            continue
        if _user_object(value) and name == "self":
            found.append(Key(value, take(value), name, "closure", here, name=name))
        elif isinstance(value, (list, dict, set, np.ndarray)):
            found.append(Key(value, take(value), name, "global", here, name=name))
    namespace = function.__globals__
    names = _names(code)
    for name in names - written:
        if name not in namespace:
            continue
        value = namespace[name]
        if isinstance(value, type) and not _of_a_library(value.__module__):
            _class_attributes(value, name, names, here, found)
            continue
        if isinstance(value, (types.FunctionType, types.MethodType, type, types.ModuleType, jax.Array)) or callable(value):
            continue
        if is_plain_value(value) or isinstance(value, (list, dict, set, np.ndarray)):
            found.append(Key(value, None if is_plain_value(value) else take(value), name, "global", here, namespace=namespace, name=name))


def _class_attributes(cls: type, name: str, names: set[str], here: Site, found: list) -> None:
    """The attributes of a program's class the function's code names (`Config.scale`): values
    it reads as it would a global, seen rebound through the class's namespace."""
    namespace = vars(cls)
    for attribute in sorted(names & namespace.keys()):
        value = namespace[attribute]
        if is_plain_value(value) or isinstance(value, (list, dict, set, np.ndarray)):
            snapshot = None if is_plain_value(value) else take(value)
            found.append(Key(value, snapshot, f"{name}.{attribute}", "global", here, namespace=namespace, name=attribute))


_MUTATORS = {"append", "extend", "clear", "update", "add", "pop", "insert", "remove", "setdefault", "discard", "popitem"}


def _written(code) -> set[str]:
    """Globals the function changes (a trace log: `TRACES.append(...)`, `COUNT[0] += 1`), not values it reads."""
    import dis

    written: set[str] = set()
    loaded = None
    distance = 0
    for instruction in dis.get_instructions(code):
        if instruction.opname in ("LOAD_GLOBAL", "LOAD_DEREF"):
            loaded, distance = instruction.argval, 0
            continue
        distance += 1
        if loaded is None or distance > 8:
            continue
        if instruction.opname in ("LOAD_ATTR", "LOAD_METHOD") and instruction.argval in _MUTATORS and distance == 1:
            written.add(loaded)
        elif instruction.opname == "STORE_SUBSCR":
            written.add(loaded)
            loaded = None
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            written |= _written(constant)
    return written


def _names(code) -> set[str]:
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names(constant)
    return names
