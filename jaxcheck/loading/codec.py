"""Facts to JSON-ready lists and back, derived from the facts' own dataclasses.

Each dataclass becomes the list of its fields in order; tuples become lists;
a literal Python value JSON cannot hold (bytes, complex, a tuple of
constants) is kept as its `repr`. Decoders are built once per type from the
type annotations, so a new field needs no code here (a test round-trips the
facts of real code). Anything that does not decode raises, and the cache
drops the entry.
"""

from __future__ import annotations

import ast
import dataclasses
import types
import typing
from functools import lru_cache

from jaxcheck import facts as f
from jaxcheck.findings import Finding

_LITERAL = object  # how `Value.literal` is annotated


def encode(value):
    """A facts object as nested lists, strings, numbers and None."""
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if isinstance(value, f.Ref):
        return [value.name, value.function, list(value.attributes)] if value.function or value.attributes else value.name
    if dataclasses.is_dataclass(value):
        return [_encode_field(getattr(value, field.name), field.type) for field in dataclasses.fields(value)]
    return value


def _encode_field(value, annotation):
    if annotation == "object":
        return _encode_literal(value)
    return encode(value)


def _encode_literal(literal):
    """JSON keeps ints, strings and finite floats; the rest (bytes, tuples, complex) go as their repr."""
    if literal is None or type(literal) in (int, str, bool):
        return literal
    if type(literal) is float and literal == literal and abs(literal) != float("inf"):
        return literal
    return {"r": repr(literal)}


def _decode_literal(raw):
    if type(raw) is dict:
        return ast.literal_eval(raw["r"])
    return raw


def decode(raw) -> f.ModuleFacts:
    return _decoder(f.ModuleFacts)(raw)


def decode_finding(raw) -> Finding:
    return _decoder(Finding)(raw)


def _decode_ref(raw) -> f.Ref:
    if type(raw) is str:
        return f.Ref(raw)
    name, function, attributes = raw
    return f.Ref(name, function, tuple(attributes))


@lru_cache(maxsize=None)
def _decoder(annotation):
    """A function from the encoded form of `annotation` back to its value."""
    if annotation is f.Ref:
        return _decode_ref
    if annotation is _LITERAL:
        return _decode_literal
    if annotation in (str, int, bool):
        return _checked(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        decode_inner = _decoder(inner)
        return lambda raw: None if raw is None else decode_inner(raw)
    if origin is tuple:
        args = typing.get_args(annotation)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda raw: tuple(map(item, raw))
        items = tuple(_decoder(arg) for arg in args)
        return lambda raw: tuple(decode_item(part) for decode_item, part in zip(items, raw, strict=True))
    if dataclasses.is_dataclass(annotation):
        return _dataclass_decoder(annotation)
    raise TypeError(f"no decoder for {annotation!r}")


def _checked(kind):
    def decode_plain(raw):
        if type(raw) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {type(raw).__name__}")
        return raw

    return decode_plain


def _dataclass_decoder(cls):
    names = tuple(field.name for field in dataclasses.fields(cls))
    # The facts' dataclasses have slots (the memory of a big project's facts); a finding has a dict.
    slots = tuple(cls.__dict__[name] for name in names) if "__slots__" in cls.__dict__ else None
    decoders: list = []  # filled on first use: `Value` holds `Value`s

    def decode_dataclass(raw):
        if not decoders:
            hints = typing.get_type_hints(cls)
            decoders.extend(_decoder(hints[name]) for name in names)
        if len(raw) != len(names):
            raise ValueError(f"{cls.__name__}: expected {len(names)} fields, got {len(raw)}")
        # A frozen dataclass's __init__ sets each field through object.__setattr__;
        # filling the slots or the instance dict directly builds the same object faster.
        instance = object.__new__(cls)
        values = [decode_field(part) for decode_field, part in zip(decoders, raw)]
        if slots is None:
            instance.__dict__.update(zip(names, values))
        else:
            for slot, value in zip(slots, values):
                slot.__set__(instance, value)
        return instance

    return decode_dataclass
