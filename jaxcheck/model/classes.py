"""How a class hashes, compares and mutates: the static-safety model of SPEC 3.

A class is judged only when everything that shapes it is known: its bases are
project classes or known library bases, its decorators are known. Anything
else (an unknown base, decorator or metaclass) leaves it unjudged: jaxcheck
never guesses.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jaxcheck import facts as f
from jaxcheck.model.symbols import Index

VALUE, IDENTITY, UNHASHABLE, SINGLETON = "value", "identity", "unhashable", "singleton"

_NEUTRAL_BASES = frozenset(
    {
        "builtins.object",
        "abc.ABC",
        "typing.Generic",
        "typing.Protocol",
        "typing_extensions.Protocol",
    }
)
_SINGLETON_BASES = frozenset(
    {"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "enum.ReprEnum"}
)
_VALUE_BASES = frozenset({"typing.NamedTuple", "builtins.tuple", "builtins.str", "builtins.int", "builtins.frozenset"})
_UNHASHABLE_BASES = frozenset({"builtins.list", "builtins.dict", "builtins.set", "builtins.bytearray"})
# Class decorators that write a dataclass, each with its default for `frozen`.
_DATACLASS_MAKERS = {
    "dataclasses.dataclass": False,
    "flax.struct.dataclass": True,
    "attr.s": False,
    "attr.attrs": False,
    "attr.define": False,
    "attrs.define": False,
    "attr.mutable": False,
    "attrs.mutable": False,
    "attr.frozen": True,
    "attrs.frozen": True,
}
# Bases whose subclasses are frozen dataclasses, hashed and compared by their fields.
_FROZEN_DATACLASS_BASES = frozenset({"equinox.Module", "equinox._module.Module", "flax.struct.PyTreeNode"})
_NEUTRAL_DECORATORS = frozenset(
    {
        "typing.final",
        "typing_extensions.final",
        "functools.total_ordering",
        "typing.runtime_checkable",
        "jax.tree_util.register_pytree_node_class",
        "jax.tree_util.register_static",
    }
)
_NEUTRAL_METACLASSES = frozenset({"abc.ABCMeta"})
CONSTRUCTION = frozenset({"__init__", "__new__", "__post_init__", "__setstate__", "__attrs_post_init__"})
CLASS_VARIABLE = "typing.ClassVar"  # how the facts mark a ClassVar annotation
_ATTRIBUTE_HOOKS = frozenset({"__setattr__", "__delattr__"})  # how writes happen, not writes
_IDENTITY_HASHES = frozenset({"builtins.id", "builtins.object.__hash__"})


@dataclass(frozen=True)
class Dataclass:
    frozen: bool
    eq: bool
    unsafe_hash: bool
    maker: str = "@dataclass"  # how messages name the decorator


@dataclass(frozen=True)
class Field:
    """One place a field gets its value: a class-body declaration or a write while building."""

    name: str
    location: f.Location
    path: str
    value: f.Value | None
    annotation: tuple[str, ...]
    declared: bool = False  # a field of a dataclass-like class (a constructor argument)
    compared: bool = False  # its generated `__eq__` compares it
    per_instance: bool = False  # assigned while an instance is built, not in the class body


@dataclass(frozen=True)
class Traits:
    """What the model knows of a class."""

    mutable: bool
    mutable_because: str  # why, for messages: "a plain class", "`@dataclass` without frozen=True"
    hashing: str  # VALUE, IDENTITY, UNHASHABLE or SINGLETON
    hashing_because: str
    hashing_location: f.Location | None  # the member at fault, when one is
    compares_by_value: bool  # `__eq__` is its own, a dataclass's or a value base's
    has_state: bool  # it has fields or instance attributes to read


class StaticSafety:
    """Judges project classes on demand, each once, bases before subclasses."""

    def __init__(self, index: Index, static_bases=(), singletons=()) -> None:
        self.index = index
        self.static_bases = frozenset(static_bases)  # configured: immutable and hashed by value
        self.singletons = frozenset(singletons)  # configured: one instance, so hashing by identity is right
        self._traits: dict[str, Traits | None] = {}

    def traits(self, qualname: str) -> Traits | None:
        """The traits of a project class; None when it cannot be judged."""
        if qualname not in self._traits:
            self._traits[qualname] = None  # a cycle of bases is not judged
            self._traits[qualname] = self._judge(qualname)
        return self._traits[qualname]

    def _judge(self, qualname: str) -> Traits | None:
        cls = self.index.classes[qualname]
        if qualname in self.static_bases:
            return Traits(False, "", VALUE, "", None, True, True)
        traits = self._judge_class(qualname, cls)
        if traits is not None and qualname in self.singletons and traits.hashing == IDENTITY:
            traits = replace(traits, hashing=SINGLETON, hashing_because="a configured singleton")
        return traits

    def _judge_class(self, qualname: str, cls: f.ClassFacts) -> Traits | None:
        dataclass_ = None
        for decorator in cls.decorators:
            if decorator.ref in _DATACLASS_MAKERS:
                dataclass_ = _dataclass_options(decorator, _DATACLASS_MAKERS[decorator.ref])
                if dataclass_ is not None:
                    dataclass_ = replace(dataclass_, maker="@" + decorator.ref.replace("dataclasses.", ""))
                if dataclass_ is None:
                    return None
            elif decorator.ref not in _NEUTRAL_DECORATORS:
                return None
        if any(key != "metaclass" or ref not in _NEUTRAL_METACLASSES for key, ref in cls.keywords):
            return None
        bases: list[Traits] = []
        singleton = value_base = unhashable_base = False
        for base in cls.bases:
            if base in _NEUTRAL_BASES:
                continue
            if base in _FROZEN_DATACLASS_BASES:
                dataclass_ = dataclass_ or Dataclass(frozen=True, eq=True, unsafe_hash=False)
            elif self.index.canonical(base) in self.static_bases or base in self.static_bases:
                value_base = True
            elif base in _SINGLETON_BASES:
                singleton = True
            elif base in _VALUE_BASES:
                value_base = True
            elif base in _UNHASHABLE_BASES:
                unhashable_base = True
            elif self.index.lookup_class(base) is not None:
                traits = self.traits(self.index.lookup_class(base))
                if traits is None:
                    return None
                bases.append(traits)
            else:
                return None
        has_state = self._has_state(cls) or any(base.has_state for base in bases)
        if singleton or any(base.hashing == SINGLETON for base in bases):
            return Traits(False, "", SINGLETON, "an Enum", None, True, has_state)
        mutable, mutable_because = self._mutability(cls, dataclass_, bases, value_base)
        hashing = self._hashing(cls, dataclass_, bases, value_base, unhashable_base)
        return Traits(mutable, mutable_because, *hashing, has_state)

    def _mutability(self, cls: f.ClassFacts, dataclass_, bases: list[Traits], value_base: bool) -> tuple[bool, str]:
        if dataclass_ is not None and dataclass_.frozen:
            return False, ""
        if value_base or self._blocks_setattr(cls) or any(not base.mutable for base in bases):
            return False, ""
        if dataclass_ is not None:
            if dataclass_.unsafe_hash:
                return True, f"`{dataclass_.maker}` with `unsafe_hash=True` and without `frozen=True`"
            return True, f"a `{dataclass_.maker}` without `frozen=True`"
        mutable_base = next((base for base in bases if base.mutable), None)
        if mutable_base is not None:
            return True, mutable_base.mutable_because
        return True, "a plain class that does not block `__setattr__`"

    def _hashing(self, cls: f.ClassFacts, dataclass_, bases: list[Traits], value_base: bool, unhashable_base: bool):
        """(hashing, why, member at fault, compares by value), as Python and `dataclass` decide them."""
        eq_method = self.index.method(cls.qualname, "__eq__")
        by_value = (
            eq_method is not None
            or (dataclass_ is not None and dataclass_.eq)
            or value_base
            or any(base.compares_by_value for base in bases)
        )
        hashing, because, location = self._hash_kind(cls, dataclass_, eq_method, bases, value_base, unhashable_base)
        if hashing == VALUE and not by_value:
            hash_method = self.index.find_method(cls.qualname, "__hash__")
            return (
                IDENTITY,
                "it defines `__hash__` but no `__eq__`, so equal instances still compare by identity",
                hash_method.location if hash_method is not None else None,
                by_value,
            )
        return hashing, because, location, by_value

    def _hash_kind(self, cls: f.ClassFacts, dataclass_, eq_method, bases, value_base: bool, unhashable_base: bool):
        for attribute in cls.attributes:
            if attribute.name == "__hash__" and attribute.value is not None:
                if attribute.value.kind == f.CONSTANT and attribute.value.literal is None:
                    return UNHASHABLE, "it sets `__hash__ = None`", attribute.location
                if attribute.value.ref in _IDENTITY_HASHES:
                    return IDENTITY, "its `__hash__` is `object.__hash__`, the object's identity", attribute.location
                return VALUE, "", None
        hash_method = self.index.method(cls.qualname, "__hash__")
        defers = hash_method is not None and bool(hash_method.returns) and all(
            value.ref == "builtins.super().__hash__" for value in hash_method.returns
        )
        if hash_method is not None and not defers:
            if any(_is_identity_hash(value) for value in hash_method.returns):
                return IDENTITY, "its `__hash__` returns the object's identity", hash_method.location
            return VALUE, "", None
        if not defers:
            # A `__hash__` in the body, even one deferring to `super()`, stops
            # both `dataclass` and Python from setting it to None.
            if dataclass_ is not None:
                if dataclass_.unsafe_hash or (dataclass_.eq and dataclass_.frozen):
                    return VALUE, "", None
                if dataclass_.eq:
                    return (
                        UNHASHABLE,
                        f"a `{dataclass_.maker}` with `eq=True` and without `frozen=True` has `__hash__` set to None",
                        None,
                    )
            if eq_method is not None:
                return UNHASHABLE, "it defines `__eq__` without `__hash__`, so Python sets `__hash__` to None", eq_method.location
        for base in bases:
            if base.hashing != IDENTITY or base.hashing_location is not None:
                return base.hashing, base.hashing_because, None
        if value_base:
            return VALUE, "", None
        if unhashable_base:
            return UNHASHABLE, "it inherits from an unhashable built-in container", None
        if defers:
            return IDENTITY, "its `__hash__` defers to `object.__hash__`, the object's identity", hash_method.location
        if dataclass_ is not None and not dataclass_.eq:
            return IDENTITY, "`@dataclass(eq=False)` keeps `object`'s identity hash and equality", None
        return IDENTITY, "it defines neither `__hash__` nor `__eq__`", None

    def _blocks_setattr(self, cls: f.ClassFacts) -> bool:
        """A `__setattr__` that can raise: frozen, or frozen once built (`if self._frozen: raise`)."""
        method = self.index.method(cls.qualname, "__setattr__")
        return method is not None and method.raises

    def _has_state(self, cls: f.ClassFacts) -> bool:
        if any(not attribute.name.startswith("__") for attribute in cls.attributes):
            return True
        for method in cls.methods:
            function = self.index.functions[method]
            if function.is_instance_method and self.index.writes.get(
                f"{method}:{function.parameters[0].name}"
            ):
                return True
        return False

    def mutation_sites(self, qualname: str) -> list[tuple[f.AttributeWrite, str, bool]]:
        """Writes to attributes of the class's instances after construction.

        Each is (write, path, inside), `inside` when a method of the class does it.
        """
        sites = []
        construction = self._construction_methods(qualname)
        methods = self._methods_with_bases(qualname)
        for method in methods:
            function = self.index.functions[method]
            if function.name in construction or function.name in _ATTRIBUTE_HOOKS:
                continue
            if not function.is_instance_method:
                continue
            for write, path in self.index.writes.get(f"{method}:{function.parameters[0].name}", ()):
                sites.append((write, path, True))
        for target, writes in self.index.writes.items():
            outside = [(write, path) for write, path in writes if write.function not in methods]
            if outside and qualname in self.index.instance_classes(target):
                sites.extend((write, path, False) for write, path in outside)
        return sites

    def _methods_with_bases(self, qualname: str) -> list[str]:
        cls = self.index.classes[qualname]
        methods = list(cls.methods)
        for base in map(self.index.canonical, cls.bases):
            if base in self.index.classes and base != qualname:
                methods.extend(self._methods_with_bases(base))
        return methods

    def fields(self, qualname: str) -> list[Field]:
        """What a class's instances hold: names given in its body (ClassVars left
        out) and attributes set on `self` while it is built, each with where and what."""
        return self._fields(qualname, set())

    def _fields(self, qualname: str, seen: set[str]) -> list[Field]:
        seen.add(qualname)
        cls = self.index.classes[qualname]
        declared = self.is_dataclass_like(qualname)
        found = [
            Field(
                attribute.name,
                attribute.location,
                self.index.path_of[qualname],
                attribute.value,
                attribute.annotation,
                declared,
                declared and _compared(attribute.value),
            )
            for attribute in cls.attributes
            if attribute.annotation and CLASS_VARIABLE not in attribute.annotation and not attribute.name.startswith("__")
        ]
        construction = self._construction_methods(qualname)
        for method in cls.methods:
            function = self.index.functions[method]
            if function.name not in construction or not function.is_instance_method:
                continue
            for write, path in self.index.writes.get(f"{method}:{function.parameters[0].name}", ()):
                if write.attribute != "*" and not write.attribute.startswith("__"):
                    found.append(Field(write.attribute, write.location, path, write.value, (), per_instance=True))
        for base in map(self.index.canonical, cls.bases):
            if base in self.index.classes and base not in seen:
                found.extend(self._fields(base, seen))
        return found

    def is_dataclass_like(self, qualname: str) -> bool:
        """Its annotated names are constructor arguments and compared fields:
        dataclasses, attrs, flax.struct, equinox modules, NamedTuples."""
        cls = self.index.classes[qualname]
        if any(decorator.ref in _DATACLASS_MAKERS for decorator in cls.decorators):
            return True
        bases = {self.index.canonical(base) for base in cls.bases}
        return bool(bases & (_FROZEN_DATACLASS_BASES | {"typing.NamedTuple"}))

    def _construction_methods(self, qualname: str) -> set[str]:
        """`__init__` and friends, and the helpers they call on `self`."""
        names = set(CONSTRUCTION)
        pending = [m for m in self._methods_with_bases(qualname) if m.rpartition(".")[2] in CONSTRUCTION]
        while pending:
            function = self.index.functions[pending.pop()]
            if not function.parameters:
                continue
            use = function.parameter_use(function.parameters[0].name)
            for attribute in use.attributes if use else ():
                helper = self.index.find_method(qualname, attribute)
                if helper is not None and attribute not in names:
                    names.add(attribute)
                    pending.append(helper.qualname)
        return names


def _dataclass_options(decorator: f.Value, frozen: bool) -> Dataclass | None:
    """The options that shape hashing and mutation; None when they are not literals.

    attrs spells `unsafe_hash` as `hash` too, and `eq` as `cmp` in old code.
    """
    options = {"frozen": frozen, "eq": True, "unsafe_hash": False}
    aliases = {"hash": "unsafe_hash", "cmp": "eq"}
    if decorator.kind == f.CALL:
        for key, value in decorator.keywords:
            if key == "**":
                return None
            key = aliases.get(key, key)
            if key in options:
                if value.kind != f.CONSTANT or not isinstance(value.literal, (bool, type(None))):
                    return None
                if value.literal is not None:
                    options[key] = value.literal
    return Dataclass(**options)


def _compared(value: f.Value | None) -> bool:
    """`field(compare=False)`, `attr.ib(eq=False)` and kin leave a field out of `__eq__`."""
    if value is None or value.kind != f.CALL:
        return True
    for key in ("compare", "eq"):
        given = value.keyword(key)
        if given is not None and given.kind == f.CONSTANT and given.literal is False:
            return False
    return True


def _is_identity_hash(value: f.Value) -> bool:
    """`id(self)`, `object.__hash__(self)`, or an expression built on them (`hash(id(self))`)."""
    if value.kind == f.CALL and value.ref in _IDENTITY_HASHES:
        return True
    return any(_is_identity_hash(arg) for arg in value.args)
