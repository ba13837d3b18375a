"""What a value or a field holds, as far as the code says: an array, a mutable
container, an object that is not static-safe, or a callable made anew.

Static values and pytree `aux_data` must be hashable, immutable and equal
from one call to the next; these are the things that are not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from jaxcheck import facts as f
from jaxcheck.model.classes import IDENTITY, SINGLETON, UNHASHABLE, Field

if TYPE_CHECKING:  # the analysis asks these questions of itself
    from jaxcheck.model.project import Analysis

ARRAY_TYPES = frozenset(
    {
        "jax.Array",
        "jax.numpy.ndarray",
        "numpy.ndarray",
        "numpy.typing.NDArray",
        "chex.Array",
        *(
            f"jaxtyping.{name}"
            for name in (
                "Array", "Shaped", "Bool", "Num", "Real", "Inexact", "Float", "Complex",
                "Integer", "Int", "UInt", "Key", "PRNGKeyArray", "Float32", "Float64", "Int32", "Int64",
            )
        ),
    }
)
_PARTIAL = frozenset({"functools.partial"})
_EQUINOX_MODULES = frozenset({"equinox.Module", "equinox._module.Module"})


def field_holds(field: Field, analysis: Analysis) -> str | None:
    """What dynamic thing the field holds, for a message; None when it holds nothing such."""
    for ref in field.annotation:
        if ref in ARRAY_TYPES:
            return f"an array (annotated `{ref}`)"
    if field.value is not None:
        kind = analysis.index.unhashable_kind(field.value)
        if kind:
            return f"an array (`{field.value.ref}(...)`)" if kind == "array" else f"a {kind}, which is mutable"
    for held in analysis.held_classes(field):
        traits = analysis.safety.traits(held)
        if traits is None or traits.hashing == SINGLETON:
            continue
        if traits.mutable or traits.hashing in (IDENTITY, UNHASHABLE):
            because = traits.mutable_because if traits.mutable else traits.hashing_because
            name = held.rpartition(".")[2]
            return f"{'an' if name[:1] in 'AEIOU' else 'a'} `{name}`, which is not static-safe ({because})"
    return None


def per_instance_callable(value: f.Value | None, class_qualname: str, analysis: Analysis) -> str | None:
    """What per-instance callable `value` is (for a message), or None."""
    if value is None:
        return None
    if value.kind == f.LAMBDA:
        return "a lambda"
    if value.kind == f.CALL and value.ref in _PARTIAL:
        return "a `functools.partial` object"
    if value.kind != f.NAME:
        return None
    index = analysis.index
    function = index.functions.get(value.ref)
    if function is not None and value.ref.rpartition(".")[0] in index.functions:
        return f"the nested function `{function.name}`"
    base, _, attribute = value.ref.rpartition(".")
    if not base or ":" not in base:
        # `Class.method` is a plain function; a method of an object bound at
        # module level is equal every time it is taken (same `__self__`).
        return None
    if base in index.classes:
        return None
    if class_qualname:
        owners = index.instance_classes(base) or ((class_qualname,) if base.endswith(":self") else ())
    else:
        # At a construction site, a method of a long-lived object (the caller's
        # `self`, a parameter) is equal each time it is taken: only an object
        # built right there makes a new one each time.
        owners = tuple(
            cls for binding in index.bindings.get(base, ()) if (cls := index.constructed_class(binding.value))
        )
    for owner in owners:
        method = index.find_method(owner, attribute)
        if method is not None and method.is_instance_method and not _is_equinox_module(owner, analysis):
            shown = base.partition(":")[2]
            return f"the bound method `{shown}.{attribute}`"
    return None


def _is_equinox_module(qualname: str, analysis: Analysis) -> bool:
    """equinox wraps the methods of its modules so that they compare by value."""
    pending, seen = [qualname], set()
    while pending:
        current = pending.pop()
        if current in _EQUINOX_MODULES:
            return True
        if current in seen or current not in analysis.index.classes:
            continue
        seen.add(current)
        pending.extend(map(analysis.index.canonical, analysis.index.classes[current].bases))
    return False


# What JAX cannot keep in a tree's structure: the three JAX30x hazards.
ARRAY, MUTABLE, UNSTABLE = "array", "mutable", "unstable"
_CONTAINER_TYPES = {
    "builtins.list": "list",
    "builtins.dict": "dict",
    "builtins.set": "set",
    "builtins.bytearray": "bytearray",
    "typing.List": "list",
    "typing.Dict": "dict",
    "typing.Set": "set",
    "typing.MutableMapping": "dict",
    "typing.MutableSequence": "list",
    "collections.abc.MutableMapping": "dict",
    "collections.abc.MutableSequence": "list",
}
_DISPLAYS = {f.LIST: "list", f.DICT: "dict", f.SET: "set"}
# Field specifiers: what they hold is their `default`, or what `default_factory` makes.
FIELD_SPECIFIERS = frozenset(
    {
        "dataclasses.field",
        "equinox.field",
        "equinox._module.field",
        "equinox.static_field",
        "equinox._module.static_field",
        "flax.struct.field",
        "jax_dataclasses.static_field",
        "flax.nnx.static",
    }
)


@dataclass(frozen=True)
class Held:
    """Something a tree's structure must not hold."""

    kind: str  # ARRAY, MUTABLE or UNSTABLE
    what: str  # for messages: "an array (`np.asarray(...)`)"
    where: tuple[str, f.Location] | None = None  # where it is given, when not where it is reported


def value_holds(value: f.Value, analysis: Analysis, cls: str | None = None, subject: str = "") -> Held | None:
    """What an expression put in a tree's structure is, when it is a hazard.

    `subject` is the ref of the object being flattened (its fields are
    looked up in `cls`); "" when the expression is not in a flatten.
    """
    index = analysis.index
    if value.kind in _DISPLAYS:
        return Held(MUTABLE, f"a {_DISPLAYS[value.kind]}")
    if value.kind == f.LAMBDA:
        return Held(UNSTABLE, "a lambda, a new function each time it is made")
    if value.kind == f.CALL:
        return _call_holds(value, analysis)
    if value.kind != f.NAME:
        return None
    if subject and value.ref.startswith(subject + "."):
        attribute = value.ref[len(subject) + 1 :]
        if "." in attribute or cls is None:
            return None
        method = index.find_method(cls, attribute)
        if method is not None:
            if method.is_instance_method and not method.is_property and not _is_equinox_module(cls, analysis):
                return Held(UNSTABLE, f"the bound method `{attribute}`, a new object on each flatten")
            return None
        if _class_body_lambda(cls, attribute, analysis):
            return Held(UNSTABLE, f"the bound method `{attribute}` (a lambda in the class body), a new object on each flatten")
        return attribute_holds(cls, attribute, analysis)
    made = per_instance_callable(value, "" if subject else cls or "", analysis)
    if made is not None and (not made.startswith("the bound method") or not subject):
        return Held(UNSTABLE, f"{made}, a new function each time it is made")
    kind = index.unhashable_kind(value)
    if kind == "array":
        return Held(ARRAY, f"an array (`{value.ref.rpartition('.')[2]}`)")
    return Held(MUTABLE, f"a {kind}") if kind else None


def _class_body_lambda(cls: str, attribute: str, analysis: Analysis) -> bool:
    """`act = lambda v: v` in the class body: read on an instance, a new bound method."""
    pending, seen = [cls], set()
    while pending:
        current = pending.pop()
        if current in seen or current not in analysis.index.classes:
            continue
        seen.add(current)
        facts = analysis.index.classes[current]
        for found in facts.attributes:
            if found.name == attribute:
                return found.value is not None and found.value.kind == f.LAMBDA
        pending.extend(map(analysis.index.canonical, facts.bases))
    return False


def _call_holds(call: f.Value, analysis: Analysis) -> Held | None:
    index = analysis.index
    kind = index.unhashable_kind(call)
    if kind == "array":
        return Held(ARRAY, f"an array (`{_short(call.ref)}(...)`)")
    if kind:
        return Held(MUTABLE, f"a {kind}")
    if call.ref in _PARTIAL:
        return Held(UNSTABLE, "a `functools.partial`, a new object each time it is made")
    if call.ref == "builtins.object":
        return Held(UNSTABLE, "a new `object()`, equal only to itself")
    built = index.constructed_class(call)
    traits = analysis.safety.traits(built) if built is not None else None
    if traits is not None and traits.hashing == IDENTITY:
        name = built.rpartition(".")[2]
        return Held(UNSTABLE, f"a new `{name}`, which compares by identity ({traits.hashing_because})")
    return None


def attribute_holds(cls: str, attribute: str, analysis: Analysis) -> Held | None:
    """What the field `attribute` of `cls` holds, from its annotation, its
    default, what construction assigns, and what construction sites pass."""
    for field in analysis.safety.fields(cls):
        if field.name != attribute:
            continue
        held = _field_holds(cls, field, analysis)
        if held is not None:
            return held
    return None


def _field_holds(cls: str, field: Field, analysis: Analysis) -> Held | None:
    where = (field.path, field.location)
    held = _annotation_holds(field.annotation)
    if held is not None:
        return Held(held.kind, held.what, where)
    value = field.value
    if value is not None and value.kind == f.CALL and value.ref in FIELD_SPECIFIERS:
        factory = value.keyword("default_factory")
        if factory is not None and factory.ref in _CONTAINER_TYPES:
            return Held(MUTABLE, f"a {_CONTAINER_TYPES[factory.ref]} (`default_factory={_short(factory.ref)}`)", where)
        value = value.keyword("default") or (value.args[0] if value.ref == "flax.nnx.static" and value.args else None)
    if value is not None:
        parameter = _init_parameter(cls, value, analysis)
        if parameter is not None:
            held = _annotation_holds(parameter.annotation) or _mutable_class_held(
                analysis.index.annotated_classes(parameter), analysis
            )
            if held is not None:
                return Held(held.kind, held.what, where)
        else:
            held = value_holds(value, analysis, cls)
            # A callable made while an instance is built is made per instance;
            # one in the class body, or an object made to be unique (a marker),
            # is the same object in every flatten.
            if held is not None and (
                held.kind != UNSTABLE or field.per_instance and (value.kind != f.CALL or value.ref in _PARTIAL)
            ):
                return Held(held.kind, held.what, (field.path, value.location))
    for path, given in construction_arguments(cls, field, analysis):
        held = value_holds(given, analysis)
        if held is not None and held.kind != UNSTABLE:
            return Held(held.kind, held.what, (path, given.location))
    held = _mutable_class_held(analysis.held_classes(field), analysis)
    return Held(held.kind, held.what, where) if held is not None else None


def _mutable_class_held(classes, analysis: Analysis) -> Held | None:
    """An object of a mutable project class that is changed after it is built."""
    for inner in classes:
        traits = analysis.safety.traits(inner)
        if traits is not None and traits.mutable and analysis.mutations(inner):
            name = inner.rpartition(".")[2]
            return Held(MUTABLE, f"a `{name}`, which is mutable and changed after construction")
    return None


def _annotation_holds(annotation: tuple[str, ...]) -> Held | None:
    for ref in annotation:
        if ref in ARRAY_TYPES:
            return Held(ARRAY, f"an array (annotated `{ref}`)")
        if ref in _CONTAINER_TYPES:
            return Held(MUTABLE, f"a {_CONTAINER_TYPES[ref]} (annotated `{_short(ref)}`)")
    return None


def _init_parameter(cls: str, value: f.Value, analysis: Analysis) -> f.Parameter | None:
    """The constructor parameter a field is assigned from (`self.mask = mask`)."""
    if value.kind != f.NAME:
        return None
    function, sep, local = value.ref.partition(":")
    facts = analysis.index.functions.get(function)
    if not sep or facts is None or facts.class_qualname == "" or facts.name != "__init__":
        return None
    return next((parameter for parameter in facts.parameters if parameter.name == local), None)


def construction_arguments(cls: str, field: Field, analysis: Analysis) -> list[tuple[str, f.Value]]:
    """What the analysed calls of the class pass for a field, as (path, argument)."""
    name, position = field.name, None
    init = analysis.index.find_method(cls, "__init__")
    if init is not None:
        parameter = _init_parameter(cls, field.value, analysis) if field.value is not None else None
        if parameter is None:
            return []
        name = parameter.name
        positional = init.positional
        position = positional.index(name) - 1 if name in positional else None
    elif field.declared:
        declared = [attribute.name for attribute in analysis.index.classes[cls].attributes if attribute.annotation]
        position = declared.index(name) if name in declared else None
    else:
        return []
    found = []
    for path, call in analysis.constructions(cls):
        given = call.keyword(name)
        if given is None and position is not None and position < len(call.args) and all(
            arg.ref != "*" for arg in call.args[: position + 1]
        ):
            given = call.args[position]
        if given is not None:
            found.append((path, given))
    return found


def _short(ref: str) -> str:
    """`numpy.asarray` -> `np.asarray`, as people write it."""
    for long, short in (("jax.numpy.", "jnp."), ("numpy.", "np."), ("builtins.", "")):
        if ref.startswith(long):
            return short + ref[len(long) :]
    return ref


def aux_holds(value: f.Value, analysis: Analysis, cls: str | None, subject: str) -> Held | None:
    """What an element of `aux_data` holds, when it is a hazard. A container
    built in the flatten itself is compared by value and held by nobody else,
    so no one can change it in place: only stored ones are mutable hazards."""
    held = value_holds(value, analysis, cls, subject)
    if held is not None and held.kind == MUTABLE and value.kind in (f.LIST, f.DICT, f.SET, f.CALL):
        return None
    return held
