"""What an object holds, taken cheaply so that a later look can say what changed.

A snapshot maps each path below the object (`.scale`, `.agents[0]`,
`.fn.__self__.k`) to a token of what is there: the value of a number or a
string, the type and length of a container, the code of a function, the
content of a small numpy array. Tokens ignore identity where JAX's cache does
not (two fresh lambdas of the same code, two arrays of one shape), so two
equal-looking objects have equal snapshots. `holders` says what each path
holds, for the message: a mutable object, a frozen one, a list, a bound method.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types

import numpy as np

import jax

_DEPTH = 5  # levels below the object looked at
_BUDGET = 400  # paths recorded per snapshot
_ITEMS = 32  # items of a container, attributes of an object
_ARRAY_BYTES = 1 << 16  # numpy arrays up to this size are compared by content
_EXACT = (type(None), bool, int, str, bytes)
_PRIMITIVES = frozenset({type(None), bool, int, float, complex, str, bytes, type(Ellipsis)})
_CALLABLE_CLASS_MEMBERS = (types.FunctionType, classmethod, staticmethod, property, type, types.BuiltinFunctionType)


def is_plain_value(value) -> bool:
    """A value whose state cannot change: no snapshot needed."""
    kind = type(value)
    if kind in _PRIMITIVES or _kind(kind) == "enum":
        return True
    if kind is tuple or kind is frozenset:
        return all(is_plain_value(item) for item in value)
    return False


@dataclasses.dataclass
class Snapshot:
    tokens: dict  # path -> token
    holders: dict  # path -> what is there: ("object", cls, frozen), ("list",), ("method", cls), ("ndarray",) ...
    values: dict  # path -> a short text of a number or a string there, for messages

    def changes(self, newer: Snapshot) -> list[tuple]:
        """The paths whose token differs, outermost first, without the ones below a changed container."""
        paths = [path for path in self.tokens.keys() | newer.tokens.keys() if self.tokens.get(path) != newer.tokens.get(path)]
        paths.sort(key=lambda path: (len(path), path))
        kept: list[tuple] = []
        for path in paths:
            if not any(path[: len(other)] == other for other in kept):
                kept.append(path)
        return kept


def take(obj, only: set | None = None) -> Snapshot:
    """The snapshot of `obj`; of only the attributes `only` names, when given (what a trace read)."""
    snapshot = Snapshot({}, {}, {})
    attributes = getattr(obj, "__dict__", None) if only is not None else None
    if isinstance(attributes, dict) and not isinstance(obj, type):
        kind = type(obj)
        snapshot.tokens[()] = ("object", kind)
        snapshot.holders[()] = ("object", kind, frozen(kind))
        seen = {id(obj)}
        for name in sorted(only):
            if name in attributes:
                _walk(attributes[name], (f".{name}",), 1, snapshot, seen)
        return snapshot
    _walk(obj, (), 0, snapshot, set())
    return snapshot


def shallow_state(value):
    """For an instance of a frozen class whose fields are all plain values, (its class, its fields):
    equal for two objects exactly when their snapshots are; else None."""
    kind = type(value)
    if not frozen(kind):
        return None
    attributes = getattr(value, "__dict__", None)
    if type(attributes) is not dict or _slots(kind):
        return None
    items = tuple(attributes.items())
    for _, item in items:
        if type(item) not in _PRIMITIVES:
            return None
    return kind, items


@functools.lru_cache(maxsize=None)
def frozen(cls) -> bool:
    """Instances cannot be changed by attribute assignment: a frozen dataclass, a
    NamedTuple, or a class whose own `__setattr__` blocks it (an immutable pattern)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and params.frozen:
        return True
    if issubclass(cls, tuple):
        return True
    setter = getattr(cls, "__setattr__", object.__setattr__)
    owner = next((base for base in cls.__mro__ if "__setattr__" in vars(base)), object)
    return setter is not object.__setattr__ and not owner.__module__.startswith(("flax", "builtins"))


_TRACER = jax.core.Tracer
_kinds: dict[type, str] = {}


def _kind(kind: type) -> str:
    """What a type is, for the walk: found once per type (`isinstance` on JAX's array types is slow)."""
    found = _kinds.get(kind)
    if found is not None:
        return found
    if kind in _EXACT:
        found = "exact"
    elif kind is float or kind is complex:
        found = "float"
    elif issubclass(kind, enum.Enum):
        found = "enum"
    elif issubclass(kind, _TRACER):
        found = "tracer"
    elif issubclass(kind, np.ndarray):
        found = "ndarray"
    elif issubclass(kind, jax.Array):
        found = "array"
    elif issubclass(kind, np.generic):
        found = "scalar"
    elif issubclass(kind, types.ModuleType):
        found = "module"
    elif issubclass(kind, (types.FunctionType, types.BuiltinFunctionType)):
        found = "function"
    elif getattr(kind, "_jaxcheck_opaque", False) or (callable(getattr(kind, "__call__", None)) and _library_type(kind)):
        found = "transformed"  # a transformed function, or a library's callable (`jax.nn.relu`): never changed
    else:
        found = "other"
    _kinds[kind] = found
    return found


# JAX and the libraries around it, by top-level package (`jaxley` is a program's package, not `jax`).
LIBRARIES = frozenset({"jax", "jaxlib", "equinox", "flax", "optax", "penzai"})


def of_a_library(module: str | None) -> bool:
    return (module or "").partition(".")[0] in LIBRARIES


def _library_type(kind: type) -> bool:
    return of_a_library(kind.__module__) and not hasattr(kind, "__dataclass_fields__")


def _walk(obj, path: tuple, depth: int, snapshot: Snapshot, seen: set) -> None:
    tokens = snapshot.tokens
    if len(tokens) >= _BUDGET:
        return
    kind = type(obj)
    category = _kind(kind)
    if category == "exact":
        tokens[path] = (kind, obj)
        snapshot.values[path] = _short(obj)
        return
    if category == "float" or category == "scalar":
        tokens[path] = (kind, repr(obj))  # NaN is unequal to itself; its repr is not
        snapshot.values[path] = repr(obj)
        return
    if category == "enum":
        tokens[path] = ("enum", kind.__qualname__, obj.name)
        return
    if category == "tracer":
        tokens[path] = ("tracer",)
        return
    if category == "ndarray":
        content = hash(obj.tobytes()) if obj.nbytes <= _ARRAY_BYTES else id(obj)
        tokens[path] = ("ndarray", obj.shape, obj.dtype.str, content)
        snapshot.holders[path] = ("ndarray",)
        if obj.size <= 8:
            snapshot.values[path] = _short(obj.tolist())
        return
    if category == "array":
        tokens[path] = ("array", tuple(obj.shape), str(obj.dtype))  # replaced arrays of one shape are not a change
        return
    if category == "module":
        tokens[path] = ("module", obj.__name__)
        return
    if category == "function":
        tokens[path] = ("function", getattr(obj, "__qualname__", ""), id(getattr(obj, "__code__", obj)))
        snapshot.holders[path] = ("function", obj)
        return
    if category == "transformed":
        tokens[path] = ("transformed", id(obj))
        return
    if id(obj) in seen or depth > _DEPTH:
        tokens[path] = ("seen", kind.__qualname__)
        return
    seen.add(id(obj))
    if isinstance(obj, types.MethodType):
        tokens[path] = ("method", obj.__func__.__qualname__)
        snapshot.holders[path] = ("method", type(obj.__self__), obj)
        _walk(obj.__self__, path + (".__self__",), depth + 1, snapshot, seen)
    elif isinstance(obj, functools.partial):
        tokens[path] = ("partial", len(obj.args), tuple(obj.keywords))
        snapshot.holders[path] = ("partial",)
        _walk(obj.func, path + (".func",), depth + 1, snapshot, seen)
        for number, item in enumerate(obj.args[:_ITEMS]):
            _walk(item, path + (f"[{number}]",), depth + 1, snapshot, seen)
        for name, item in list(obj.keywords.items())[:_ITEMS]:
            _walk(item, path + (f".{name}",), depth + 1, snapshot, seen)
    elif isinstance(obj, (tuple, list)):
        fields = getattr(kind, "_fields", None)
        tokens[path] = (kind, len(obj))
        snapshot.holders[path] = ("namedtuple", kind) if fields else (kind.__name__,)
        for number, item in enumerate(obj[:_ITEMS]):
            _walk(item, path + (f".{fields[number]}" if fields else f"[{number}]",), depth + 1, snapshot, seen)
    elif isinstance(obj, dict):
        tokens[path] = (kind, len(obj))
        snapshot.holders[path] = ("dict",)
        for key, item in list(obj.items())[:_ITEMS]:
            _walk(item, path + (f"[{key!r}]",), depth + 1, snapshot, seen)
    elif isinstance(obj, (set, frozenset)):
        tokens[path] = (kind, len(obj), tuple(sorted(map(repr, list(obj)[:_ITEMS]))))
        snapshot.holders[path] = (kind.__name__,)
    elif isinstance(obj, type):
        tokens[path] = ("class", obj.__qualname__)
        snapshot.holders[path] = ("class", obj)
        data = [(name, value) for name, value in vars(obj).items() if not name.startswith("__") and not isinstance(value, _CALLABLE_CLASS_MEMBERS) and not callable(value)]
        for name, value in data[:_ITEMS]:
            _walk(value, path + (f".{name}",), depth + 1, snapshot, seen)
    else:
        attributes = getattr(obj, "__dict__", None)
        if attributes is None and not hasattr(kind, "__slots__"):
            tokens[path] = ("opaque", kind.__qualname__)
            return
        tokens[path] = ("object", kind)
        snapshot.holders[path] = ("object", kind, frozen(kind))
        items = list(attributes.items()) if isinstance(attributes, dict) else []
        for name in _slots(kind):
            if hasattr(obj, name):
                items.append((name, getattr(obj, name)))
        for name, value in items[:_ITEMS]:
            _walk(value, path + (f".{name}",), depth + 1, snapshot, seen)


@functools.lru_cache(maxsize=None)
def _slots(kind) -> list[str]:
    names = []
    for base in kind.__mro__:
        slots = vars(base).get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else [name for name in slots if name not in ("__dict__", "__weakref__")])
    return names


def _short(value) -> str:
    return _clip(repr(value))


def _clip(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def describe(snapshot: Snapshot, path: tuple) -> str:
    """A short text of what `path` held, rebuilt from the snapshot: `2`, `[0, 1, 2]`, `a Schedule`."""
    if path in snapshot.values:
        return snapshot.values[path]
    token = snapshot.tokens.get(path)
    if token is None:
        return "(absent)"
    holder = snapshot.holders.get(path, ())
    children = sorted((other for other in snapshot.tokens if len(other) == len(path) + 1 and other[: len(path)] == path), key=_order)
    if holder[:1] in (("list",), ("tuple",)):
        text = ", ".join(describe(snapshot, child) for child in children[:6]) + (", ..." if len(children) > 6 else "")
        return _clip(f"[{text}]" if holder[0] == "list" else f"({text}{',' if len(children) == 1 else ''})")
    if holder[:1] == ("dict",):
        return _clip("{" + ", ".join(f"{child[-1][1:-1]}: {describe(snapshot, child)}" for child in children[:6]) + "}")
    if token[0] == "function":
        return f"function `{token[1]}`"
    if token[0] == "method":
        return f"bound method `{token[1]}`"
    if token[0] == "object":
        return f"a `{token[1].__name__}`"
    if token[0] == "ndarray":
        return f"an array of shape {token[1]}"
    return token[1] if len(token) > 1 and isinstance(token[1], str) else str(token[0])


def _order(path: tuple):
    step = path[-1]
    if step.startswith("[") and step[1:-1].isdigit():
        return (0, int(step[1:-1]), "")
    return (1, 0, step)
