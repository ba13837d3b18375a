"""How a class hashes, compares and mutates, and what its instances hold (SPEC 3).

A class is judged only when everything that shapes it is known: its bases are
project classes or known library bases, its decorators are known. Anything
else (an unknown base, decorator or metaclass) leaves it unjudged: jaxcheck
never guesses. What its own body says (`__eq__` without `__hash__`) is kept
apart, for the strict profile (`unhashable_by_own_body`): a base's metaclass
can still write a hash (pydantic does for frozen models).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jaxcheck import facts as f
from jaxcheck.model.jax_api import (
    CLASS_VARIABLE,
    CONSTRUCTION,
    DATACLASS_MAKERS,
    EQUINOX_MODULES,
    FROZEN_DATACLASS_BASES,
    LINEN_MODULES,
    IDENTITY_HASHES,
    NEUTRAL_BASES,
    PYDANTIC_BASES,
    PYDANTIC_CONFIGS,
    NEUTRAL_DECORATORS,
    NEUTRAL_METACLASSES,
    SETUP,
    SINGLETON_BASES,
    UNHASHABLE_BASES,
    VALUE_BASES,
)
from jaxcheck.model.symbols import Symbols

VALUE, IDENTITY, UNHASHABLE, SINGLETON = "value", "identity", "unhashable", "singleton"


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
    annotation: tuple[f.Ref, ...]
    declared: bool = False  # a field of a dataclass-like class (a constructor argument)
    compared: bool = False  # its generated `__eq__` compares it
    per_instance: bool = False  # assigned while an instance is built, not in the class body
    owner: str = ""  # the class whose body or construction gives it


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


class Classes:
    """Judges project classes on demand, each once, bases before subclasses."""

    def __init__(self, symbols: Symbols, static_bases=(), singletons=()) -> None:
        self.symbols = symbols
        self.static_bases = frozenset(static_bases)  # configured: immutable and hashed by value
        self.singletons = frozenset(singletons)  # configured: one instance, so hashing by identity is right
        self._traits: dict[str, Traits | None] = {}
        self._unknown_base: dict[str, str] = {}  # unjudged for a base: why, for messages
        self._fields: dict[str, list[Field]] = {}
        self._construction: dict[str, frozenset[str]] = {}

    # --- hashing and mutability ---------------------------------------------------------------

    def traits(self, qualname: str) -> Traits | None:
        """The traits of a project class; None when it cannot be judged."""
        if qualname not in self._traits:
            self._traits[qualname] = None  # a cycle of bases is not judged
            self._traits[qualname] = self._judge(qualname)
        return self._traits[qualname]

    def _judge(self, qualname: str) -> Traits | None:
        if qualname in self.static_bases:
            return Traits(False, "", VALUE, "", None, True, True)
        traits = self._judge_class(qualname, self.symbols.classes[qualname])
        if traits is not None and qualname in self.singletons and traits.hashing == IDENTITY:
            traits = replace(traits, hashing=SINGLETON, hashing_because="a configured singleton")
        return traits

    def _judge_class(self, qualname: str, cls: f.ClassFacts) -> Traits | None:
        dataclass_ = self._dataclass(cls)
        if dataclass_ is False:
            return None
        if any(key != "metaclass" or ref is None or ref.dotted not in NEUTRAL_METACLASSES for key, ref in cls.keywords):
            return None
        bases: list[Traits] = []
        singleton = value_base = unhashable_base = False
        for base in self.symbols.bases(qualname):
            if base is None:
                return self._unjudged(qualname, "a base is not a name")
            if base in NEUTRAL_BASES:
                continue
            if base in LINEN_MODULES:
                # Its `__init_subclass__` makes the class a dataclass hashed by its fields, and blocks
                # `__setattr__` outside `setup`: a `@dataclass` over it keeps that hash. Its own `__eq__`
                # or `__hash__` changes what linen writes: then the class's own body decides.
                if any(self.symbols.method(qualname, name) for name in ("__eq__", "__hash__")):
                    return self._unjudged(qualname, "flax linen keeps the hash its own body gives it")
                dataclass_ = Dataclass(frozen=True, eq=True, unsafe_hash=False)
            elif base in FROZEN_DATACLASS_BASES:
                dataclass_ = dataclass_ or Dataclass(frozen=True, eq=True, unsafe_hash=False)
            elif base in PYDANTIC_BASES:
                frozen = self._pydantic_frozen(cls)
                if frozen is None:
                    return self._unjudged(qualname, "its pydantic options are not literals")
                dataclass_ = Dataclass(frozen=frozen, eq=True, unsafe_hash=False, maker="pydantic.BaseModel")
            elif base in self.static_bases:
                value_base = True
            elif base in SINGLETON_BASES:
                singleton = True
            elif base in VALUE_BASES:
                value_base = True
            elif base in UNHASHABLE_BASES:
                unhashable_base = True
            elif base in self.symbols.classes:
                traits = self.traits(base)
                if traits is None:
                    return self._unjudged(qualname, f"its base `{base.rpartition('.')[2]}` cannot be judged")
                bases.append(traits)
            else:
                return self._unjudged(qualname, f"its base `{base}` is unknown to jaxcheck")
        if dataclass_ is None and bases and self.symbols.inherits(qualname, PYDANTIC_BASES):
            # A subclass of a project pydantic model: its own options, or the nearest base's, decide.
            frozen = self._pydantic_frozen(cls)
            if frozen is None:
                return self._unjudged(qualname, "its pydantic options are not literals")
            dataclass_ = Dataclass(frozen=frozen, eq=True, unsafe_hash=False, maker="pydantic.BaseModel")
        has_state = self._has_state(cls) or any(base.has_state for base in bases)
        if singleton or any(base.hashing == SINGLETON for base in bases):
            return Traits(False, "", SINGLETON, "an Enum", None, True, has_state)
        mutable, mutable_because = self._mutability(cls, dataclass_, bases, value_base)
        hashing = self._hashing(cls, dataclass_, bases, value_base, unhashable_base)
        return Traits(mutable, mutable_because, *hashing, has_state)

    def _pydantic_frozen(self, cls: f.ClassFacts) -> bool | None:
        """Whether a pydantic model's options freeze it, giving it a hash:
        `model_config = ConfigDict(frozen=True)`, or pydantic 1's `class
        Config: frozen = True` (`allow_mutation = False` alone leaves it
        unhashable); from the nearest project class that sets them. None when
        they are not literals."""
        for qualname in self.symbols.mro(cls.qualname):
            found = self._own_pydantic_frozen(self.symbols.classes[qualname])
            if found != "unset":
                return found
        return False

    def _own_pydantic_frozen(self, cls: f.ClassFacts) -> bool | None | str:
        """`_pydantic_frozen` from the class's own body; "unset" when it does not set `frozen`."""
        for attribute in cls.attributes:
            if attribute.name == "model_config":
                value = attribute.value
                if value is None or value.kind != f.CALL or value.dotted not in PYDANTIC_CONFIGS:
                    return None
                given = dict(value.keywords)
                frozen = given.get("frozen")
                if "**" in given or frozen is not None and (frozen.kind != f.CONSTANT or not isinstance(frozen.literal, bool)):
                    return None
                if frozen is not None:
                    return frozen.literal  # pydantic merges a base's options: only `frozen` itself decides
        options = self.symbols.classes.get(f"{cls.qualname}.Config")
        for attribute in options.attributes if options is not None else ():
            if attribute.name == "frozen":
                value = attribute.value
                if value is None or value.kind != f.CONSTANT or not isinstance(value.literal, bool):
                    return None
                return value.literal
        return "unset"

    def _unjudged(self, qualname: str, base: str) -> None:
        self._unknown_base[qualname] = base
        return None

    def unhashable_by_own_body(self, qualname: str) -> Traits | None:
        """For a class left unjudged because of a base jaxcheck cannot see into:
        unhashable traits when its own body defines `__eq__` without `__hash__`
        (or sets `__hash__ = None`), which Python turns into `__hash__ = None`;
        else None. Not evidence: the base's metaclass may write a hash (a frozen
        pydantic model), and a dataclass over such a base may keep one its
        `__init_subclass__` wrote (a flax linen module)."""
        if self.traits(qualname) is not None or qualname not in self._unknown_base:
            return None
        cls = self.symbols.classes[qualname]
        if self._dataclass(cls) is not None:
            return None
        eq_method = self.symbols.method(qualname, "__eq__")
        hashing, because, location = self._hash_kind(cls, None, eq_method, [], False, False)
        if hashing != UNHASHABLE:
            return None
        because = f"{because}; {self._unknown_base[qualname]}"
        return Traits(False, "", UNHASHABLE, because, location, True, self._has_state(cls))

    @staticmethod
    def _dataclass(cls: f.ClassFacts) -> Dataclass | None | bool:
        """The dataclass options its decorator gives; None for no dataclass; False
        when a decorator is unknown or its options are not literals."""
        found = None
        for decorator in cls.decorators:
            if decorator.dotted in DATACLASS_MAKERS:
                found = _dataclass_options(decorator, DATACLASS_MAKERS[decorator.dotted])
                if found is None:
                    return False
                found = replace(found, maker="@" + decorator.dotted.replace("dataclasses.", ""))
            elif decorator.dotted not in NEUTRAL_DECORATORS:
                return False
        return found

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
        eq_method = self.symbols.method(cls.qualname, "__eq__")
        # An `__eq__` in the body, even one deferring to `super()`, stops
        # `dataclass` from writing one: deferring, it compares as the bases do.
        eq_defers = eq_method is not None and defers_to_super(eq_method)
        by_value = (
            eq_method is not None and not eq_defers
            or (dataclass_ is not None and dataclass_.eq and eq_method is None)
            or value_base
            or any(base.compares_by_value for base in bases)
        )
        hashing, because, location = self._hash_kind(cls, dataclass_, eq_method, bases, value_base, unhashable_base)
        if hashing == VALUE and not by_value:
            hash_method = self.symbols.find_method(cls.qualname, "__hash__")
            return (
                IDENTITY,
                "its `__eq__` defers to `object.__eq__`, so equal instances still compare by identity"
                if eq_defers
                else "it defines `__hash__` but no `__eq__`, so equal instances still compare by identity",
                (eq_method if eq_defers else hash_method).location if (eq_defers or hash_method) else None,
                by_value,
            )
        return hashing, because, location, by_value

    def _hash_kind(self, cls: f.ClassFacts, dataclass_, eq_method, bases, value_base: bool, unhashable_base: bool):
        for attribute in cls.attributes:
            if attribute.name == "__hash__" and attribute.value is not None:
                if attribute.value.kind == f.CONSTANT and attribute.value.literal is None:
                    return UNHASHABLE, "it sets `__hash__ = None`", attribute.location
                if attribute.value.dotted in IDENTITY_HASHES:
                    return IDENTITY, "its `__hash__` is `object.__hash__`, the object's identity", attribute.location
                return VALUE, "", None
        hash_method = self.symbols.method(cls.qualname, "__hash__")
        defers = hash_method is not None and defers_to_super(hash_method)
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
                if dataclass_.eq and dataclass_.maker == "pydantic.BaseModel":
                    return UNHASHABLE, "a pydantic model without `frozen=True` in its `model_config` has no `__hash__`", None
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
        method = self.symbols.method(cls.qualname, "__setattr__")
        return method is not None and method.raises

    def _has_state(self, cls: f.ClassFacts) -> bool:
        if any(not attribute.name.startswith("__") for attribute in cls.attributes):
            return True
        for method in cls.methods:
            function = self.symbols.functions[method]
            if function.is_instance_method and self.symbols.writes.get(f.Ref(function.self_name, method)):
                return True
        return False

    # --- what instances hold --------------------------------------------------------------------

    def is_dataclass_like(self, qualname: str) -> bool:
        """Its annotated names are constructor arguments and compared fields:
        dataclasses, attrs, flax.struct, equinox modules, NamedTuples."""
        cls = self.symbols.classes[qualname]
        if any(decorator.dotted in DATACLASS_MAKERS for decorator in cls.decorators):
            return True
        return bool(set(self.symbols.bases(qualname)) & (FROZEN_DATACLASS_BASES | {"typing.NamedTuple"}))

    def fields(self, qualname: str) -> list[Field]:
        """What a class's instances hold: names given in its body (ClassVars left
        out) and attributes set on `self` while it is built, each with where and
        what, the class's own first, then its bases'."""
        known = self._fields.get(qualname)
        if known is None:
            known = self._fields[qualname] = [
                field for cls in self.symbols.mro(qualname) for field in self._own_fields(cls, qualname)
            ]
        return known

    def _own_fields(self, owner: str, qualname: str) -> list[Field]:
        cls = self.symbols.classes[owner]
        declared = self.is_dataclass_like(owner)
        path = self.symbols.path_of[owner]
        found = [
            Field(
                attribute.name,
                attribute.location,
                path,
                attribute.value,
                attribute.annotation,
                declared,
                declared and _compared(attribute.value),
                owner=owner,
            )
            for attribute in cls.attributes
            if attribute.annotation
            and not any(ref.dotted == CLASS_VARIABLE for ref in attribute.annotation)
            and not attribute.name.startswith("__")
        ]
        construction = self.construction_methods(qualname)
        for method in cls.methods:
            function = self.symbols.functions[method]
            if function.name not in construction or not function.is_instance_method:
                continue
            for write, write_path in self.symbols.writes.get(f.Ref(function.self_name, method), ()):
                if write.attribute != "*" and not write.attribute.startswith("__"):
                    found.append(
                        Field(write.attribute, write.location, write_path, write.value, (), per_instance=True, owner=owner)
                    )
        return found

    def construction_methods(self, qualname: str) -> frozenset[str]:
        """The methods that build an instance: `__init__` and friends, flax's
        `setup`, and the helpers they call on `self`."""
        known = self._construction.get(qualname)
        if known is not None:
            return known
        names = set(CONSTRUCTION | SETUP)
        names.update(method.name for method in self.symbols.methods(qualname) if _sets_up(method.name))
        pending = [method for method in self.symbols.methods(qualname) if method.name in names]
        while pending:
            function = pending.pop()
            use = function.parameter_use(function.self_name) if function.is_instance_method else None
            for attribute in use.attributes if use else ():
                helper = self.symbols.find_method(qualname, attribute)
                if helper is not None and attribute not in names and helper.is_instance_method:
                    names.add(attribute)
                    pending.append(helper)
        self._construction[qualname] = frozenset(names)
        return self._construction[qualname]

    def hashed_fields(self, qualname: str) -> frozenset[str]:
        """The fields a hand-written `__hash__` gives to `hash(...)` itself, alone
        or in a tuple (`hash((self.w, self.b))`): hashing one that holds an array
        raises. A field read some other way (`hash(self.w.shape)`) is not one."""
        method = self.equality_method(qualname, "__hash__")
        if method is None:
            return frozenset()
        names = set()
        for value in method.returns:
            if value.kind != f.CALL or value.dotted != "builtins.hash" or len(value.args) != 1:
                continue
            argument = value.args[0]
            for item in argument.args if argument.kind == f.TUPLE else (argument,):
                ref = item.ref
                if item.kind == f.NAME and ref.function == method.qualname and ref.name == method.self_name:
                    if len(ref.attributes) == 1:
                        names.add(ref.attributes[0])
        return frozenset(names)

    def equality_method(self, qualname: str, name: str) -> f.FunctionFacts | None:
        """The hand-written `__eq__`/`__hash__` a class uses, or None when a
        dataclass writes it (or none is written and object's is used)."""
        for cls in self.symbols.mro(qualname):
            method = self.symbols.method(cls, name)
            if method is not None:
                return method if method.is_instance_method else None
            if self._writes(cls, name):
                return None
        return None

    def generated_by(self, qualname: str, name: str) -> str | None:
        """The dataclass whose generated `__eq__`/`__hash__` a class uses, or None
        when one is written by hand or none is generated. A `@dataclass(eq=False)`
        writes neither, so it keeps its base's, which compare the base's fields only.
        An `equinox.Module` compares and hashes its flattened fields, every one
        of every subclass (Equinox makes each a `@dataclass(eq=False)` for that)."""
        if self.symbols.inherits(qualname, EQUINOX_MODULES):
            return None
        for cls in self.symbols.mro(qualname):
            if self.symbols.method(cls, name) is not None:
                return None
            if self._writes(cls, name):
                return cls
        return None

    def _writes(self, qualname: str, name: str) -> bool:
        """The dataclass machinery of the class sets `name` (to a method, or
        `__hash__` to None), rather than leaving its base's in place."""
        if not self.is_dataclass_like(qualname):
            return False
        options = self._dataclass(self.symbols.classes[qualname])
        if not isinstance(options, Dataclass):
            return True
        if name == "__hash__":
            return options.eq or options.unsafe_hash
        return options.eq


def _sets_up(name: str) -> bool:
    """A method that gives an object its first state, by name: `init`,
    `initialize`, `init_model_fn`, `setup_params` (flax's `setup` and
    `__init__` are known apart). Its writes are setup, not changes after use."""
    return name in ("init", "initialize") or name.startswith(("init_", "initialize_", "setup_"))


def defers_to_super(method: f.FunctionFacts) -> bool:
    """Every `return` of the method hands back `super().<same method>(...)`."""
    return bool(method.returns) and all(value.dotted == f"builtins.super().{method.name}" for value in method.returns)


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
    if value.kind == f.CALL and value.dotted in IDENTITY_HASHES:
        return True
    return any(_is_identity_hash(arg) for arg in value.args)
