"""Facts to JSON-ready tuples and back, by a function written once per dataclass.

Each dataclass becomes the tuple of its fields in order, a `Location` its
line and column, a `Ref` its name alone when it is a plain global; a tuple
holding only strings, numbers and booleans stays as it is (JSON writes it as
a list); a literal Python value JSON cannot hold (bytes, complex, a tuple of
constants) is kept as its `repr`.

A cold run encodes millions of objects and an edit in a big project decodes
the facts of every file it reads, so walking each value to learn what it is
cost most of the cache's time. Instead the type annotations are read once per
class, and the encoder and decoder of the class are written as Python
functions (as `dataclasses` writes `__init__`) that touch exactly its fields:
no per-value inspection, no loop over fields. A new field needs no code here
(a test round-trips the facts of real code).

Facts entries are signed by this user's jaxcheck (`cache.signed`), so what
decodes them is what `encode` wrote: their decoder checks the shape (each
dataclass has its number of fields) and trusts the leaves. Findings, checked
again by the cache, are also decoded with the type of every leaf checked.
Anything that does not decode raises, and the cache drops the entry.
"""

from __future__ import annotations

import ast
import dataclasses
import types
import typing
from functools import lru_cache

from jaxcheck import facts as f
from jaxcheck.findings import Finding

_PLAIN = (str, int, bool)


def encode(value):
    """A facts object (or a finding) as nested tuples, strings, numbers and None."""
    return _function("encode", type(value), False)(value)


def decode(raw) -> f.ModuleFacts:
    return _function("decode", f.ModuleFacts, False)(raw)


def decode_finding(raw) -> Finding:
    return _function("decode", Finding, True)(raw)


def _encode_ref(ref: f.Ref):
    return (ref.name, ref.function, ref.attributes) if ref.function or ref.attributes else ref.name


def _encode_literal(literal):
    """JSON keeps ints, strings and finite floats; the rest (bytes, tuples, complex) go as their repr."""
    if type(literal) in _PLAIN:
        return literal
    if type(literal) is float and literal == literal and abs(literal) != float("inf"):
        return literal
    return {"r": repr(literal)}


# A project's facts name the same globals again and again (the speed corpus:
# 258k plain globals, 21k distinct): frozen, they can be shared, which saves
# building them and keeps each once in memory.
@lru_cache(maxsize=2**16)
def _global(name: str) -> f.Ref:
    return f.Ref(name)


def _decode_ref(raw) -> f.Ref:
    if raw.__class__ is str:
        return _global(raw)
    name, function, attributes = raw
    return f.Ref(name, function, tuple(attributes))


def _decode_literal(raw):
    return ast.literal_eval(raw["r"])


def _checked(kind: type):
    def decode_plain(raw):
        if type(raw) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {type(raw).__name__}")
        return raw

    return decode_plain


# What the written functions refer to: the helpers above, the classes and
# their twins (`facts.twin`), and the functions written so far (named by `_name`).
_NAMESPACE: dict = {
    "new": object.__new__,
    "encode_ref": _encode_ref,
    "encode_literal": _encode_literal,
    "decode_literal": _decode_literal,
    **{f"check_{kind.__name__}": _checked(kind) for kind in _PLAIN},
}


def _name(action: str, cls: type, checked: bool) -> str:
    return f"{action}_{'checked_' if checked else ''}{cls.__module__.replace('.', '_')}_{cls.__name__}"


def _function(action: str, cls: type, checked: bool):
    """The encoder or decoder of a dataclass, written on first use."""
    name = _name(action, cls, checked)
    function = _NAMESPACE.get(name)
    if function is None:
        _write(action, cls, checked, set())
        function = _NAMESPACE[name]
    return function


def _write(action: str, cls: type, checked: bool, writing: set) -> None:
    """Write the function for `cls` and, first, those of the dataclasses it holds."""
    name = _name(action, cls, checked)
    if name in _NAMESPACE or name in writing:
        return
    if cls is f.Ref:  # a plain global, most of them, is its name alone
        _NAMESPACE[name] = _encode_ref if action == "encode" else _decode_ref
        return
    writing.add(name)
    hints = typing.get_type_hints(cls)
    fields = [field.name for field in dataclasses.fields(cls)]
    for held in _dataclasses_in(hints[field] for field in fields):
        _write(action, held, checked, writing)
    if action == "encode":
        source = _encoder_source(name, fields, hints)
    else:
        source = _decoder_source(name, cls, fields, hints, checked)
    exec(source, _NAMESPACE)  # code written here, from the annotations of jaxcheck's own classes


def _dataclasses_in(annotations) -> set:
    found = set()
    for annotation in annotations:
        if dataclasses.is_dataclass(annotation):
            found.add(annotation)
        found |= _dataclasses_in(typing.get_args(annotation))
    return found


def _class_name(cls: type) -> str:
    name = f"class_{cls.__module__.replace('.', '_')}_{cls.__name__}"
    _NAMESPACE[name] = cls
    return name


def _encoder_source(name: str, fields: list[str], hints: dict) -> str:
    parts = [_encoded(hints[field], f"o.{field}", 0) for field in fields]
    return f"def {name}(o):\n    return ({', '.join(parts)},)\n"


def _encoded(annotation, value: str, depth: int) -> str:
    """An expression encoding `value`, of type `annotation`: `value` itself when JSON writes it as it is."""
    if annotation in _PLAIN:
        return value
    if annotation is object:  # `Value.literal`: None most of the time
        return f"(None if {value} is None else encode_literal({value}))"
    if dataclasses.is_dataclass(annotation) and _flat(annotation):  # a `Location`: no call for it
        return f"({', '.join(f'({value}).{field.name}' for field in dataclasses.fields(annotation))},)"
    if dataclasses.is_dataclass(annotation):
        return f"{_name('encode', annotation, False)}({value})"
    inner = _optional(annotation)
    if inner is not None:
        encoded = _encoded(inner, value, depth)
        return value if encoded == value else f"(None if {value} is None else {encoded})"
    variables, item = _items(annotation, depth)
    encoded = [_encoded(arg, variable, depth + 1) for arg, variable in zip(item, variables)]
    if encoded == variables:
        return value
    if dataclasses.is_dataclass(item[0]) and encoded[0] == f"{_name('encode', item[0], False)}({variables[0]})":
        loop = f"[*map({_name('encode', item[0], False)}, {value})]"
    else:
        built = encoded[0] if len(encoded) == 1 else f"({', '.join(encoded)},)"
        loop = f"[{built} for {', '.join(variables)} in {value}]"
    return f"({loop} if {value} else ())"  # most tuples of facts are empty


def _decoder_source(name: str, cls: type, fields: list[str], hints: dict, checked: bool) -> str:
    variables = [f"v{index}" for index in range(len(fields))]
    values = [_decoded(hints[field], variable, 0, checked) for field, variable in zip(fields, variables)]
    lines = [f"def {name}(raw):", f"    {', '.join(variables)}, = raw"]
    if getattr(cls, "built_quickly", False):
        # Quicker than calling even `facts._built_quickly`'s `__init__`:
        # the object is made as its twin, filled, and made the class once.
        lines.append(f"    o = new({_class_name(f.twin(cls))})")
        lines.extend(f"    o.{field} = {value}" for field, value in zip(fields, values))
        lines.append(f"    o.__class__ = {_class_name(cls)}")
        lines.append("    return o")
    else:
        lines.append(f"    return {_class_name(cls)}({', '.join(values)})")
    return "\n".join(lines) + "\n"


def _decoded(annotation, raw: str, depth: int, checked: bool) -> str:
    """An expression rebuilding a value of type `annotation` from its encoded form `raw`."""
    if annotation in _PLAIN:
        return f"check_{annotation.__name__}({raw})" if checked else raw
    if annotation is object:
        return f"(decode_literal({raw}) if {raw}.__class__ is dict else {raw})"
    if dataclasses.is_dataclass(annotation):
        return f"{_name('decode', annotation, checked)}({raw})"
    inner = _optional(annotation)
    if inner is not None:
        return f"(None if {raw} is None else {_decoded(inner, raw, depth, checked)})"
    variables, item = _items(annotation, depth)
    decoded = [_decoded(arg, variable, depth + 1, checked) for arg, variable in zip(item, variables)]
    if decoded == variables and len(decoded) == 1:
        return f"tuple({raw})"
    if len(decoded) == 1 and dataclasses.is_dataclass(item[0]):
        loop = f"tuple(map({_name('decode', item[0], checked)}, {raw}))"
    elif len(decoded) == 1:
        loop = f"tuple([{decoded[0]} for {variables[0]} in {raw}])"
    else:  # pairs are taken apart in the loop, so that their length is checked
        loop = f"tuple([({', '.join(decoded)},) for {', '.join(variables)} in {raw}])"
    return f"({loop} if {raw} else ())"


def _items(annotation, depth: int) -> tuple[list[str], tuple]:
    """For `tuple[X, ...]`: a loop variable and (X,); for `tuple[tuple[X, Y], ...]`, one
    variable for each of X and Y and (X, Y). Facts hold no other tuples."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is not tuple or len(args) != 2 or args[1] is not Ellipsis:
        raise TypeError(f"no codec for {annotation!r}")
    item = args[0]
    parts = typing.get_args(item)
    if typing.get_origin(item) is tuple and Ellipsis not in parts:
        return [f"i{depth}_{index}" for index in range(len(parts))], parts
    return [f"i{depth}"], (item,)


def _flat(cls: type) -> bool:
    return all(hint in _PLAIN for hint in typing.get_type_hints(cls).values())


def _optional(annotation):
    """`X` of `X | None`, else None."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        (inner,) = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        return inner
    return None
