"""What a value or a field holds, as far as the code says: an array, a mutable
container, an object that is not static-safe, or a callable made anew.

Static values and pytree `aux_data` must be hashable, immutable and equal
from one call to the next; these are the things that are not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jaxcheck import facts as f
from jaxcheck.model.classes import IDENTITY, SINGLETON, UNHASHABLE, VALUE, Classes, Field
from jaxcheck.model.jax_api import (
    ARRAY_TYPES,
    CACHING,
    CONTAINER_TYPES,
    EQUINOX_MODULES,
    FIELD_SPECIFIERS,
    GRAPH_NODES,
    NNX_STATIC,
    PARTIAL,
)
from jaxcheck.model.state import Change, State
from jaxcheck.model.symbols import Symbols
from jaxcheck.findings import place_named

# What JAX cannot keep in a tree's structure: the three JAX30x hazards.
ARRAY, MUTABLE, UNSTABLE = "array", "mutable", "unstable"
_DISPLAYS = {f.LIST: "list", f.DICT: "dict", f.SET: "set"}
_KW_ONLY = frozenset({"dataclasses.KW_ONLY"})
# Field specifiers whose `default=` is the field's value when a construction gives none.
_DEFAULT_GIVERS = FIELD_SPECIFIERS | {"attr.ib", "attr.attrib", "attr.field", "attrs.field"}


@dataclass(frozen=True)
class Held:
    """Something a tree's structure must not hold."""

    kind: str  # ARRAY, MUTABLE or UNSTABLE
    what: str  # for messages: "an array (`np.asarray(...)`)"
    where: tuple[str, f.Location] | None = None  # where it is given, when not where it is reported
    changes: tuple[tuple[str, Change], ...] = ()  # for an object of a mutable project class: (class, change)


class Values:
    """What fields and values hold, asked of the project's code."""

    def __init__(self, symbols: Symbols, classes: Classes, state: State) -> None:
        self.symbols = symbols
        self.classes = classes
        self.state = state
        self._constructions: dict[str, list[tuple[str, f.Value]]] = {}  # a class -> the calls that build it
        self._dispatches: dict[str, dict[str, dict[str, set[str]]]] = {}  # a registry's make -> its table
        self._dispatched: dict[str, list[tuple[str, f.Value]]] | None = None
        self._setters: dict[str, list[tuple[str, f.Ref, str, f.Value]]] | None = None  # a name setter -> its calls

    # --- objects held in fields -------------------------------------------------------------------

    def held_classes(self, field: Field) -> list[str]:
        """The project class a field holds, by its one-class annotation or the object built into it."""
        found = []
        if field.declared and not field.compared:
            return found  # `field(compare=False)`: not part of the static key
        if field.value is not None and field.value.kind == f.CALL:
            built = self.symbols.lookup_class(field.value.ref)
            if built is not None:
                found.append(built)
            else:  # what a factory returns: `self.sample = self.helper.sample(key)`
                found.extend(self.returned_classes(field.value))
        if len(field.annotation) == 1:
            # An annotation says what is held for a concrete class; a stateless
            # interface base with subclasses says little (the value built tells).
            named = self.symbols.lookup_class(field.annotation[0])
            if named is not None and named not in found and not self.symbols.is_abstract(named):
                traits = self.classes.traits(named) if self.symbols.subclasses.get(named) else None
                if not self.symbols.subclasses.get(named) or (traits is not None and traits.has_state):
                    found.append(named)
        # A stateless object (`act: Relu = Relu()`) gives nothing to go stale.
        return [qualname for qualname in found if self._stateful(qualname)]

    def _stateful(self, qualname: str) -> bool:
        traits = self.classes.traits(qualname)
        return traits is None or traits.has_state

    def field_holds(self, cls: str, field: Field, hashed: bool = False) -> tuple[str, bool] | None:
        """What dynamic thing a field of `cls` holds, for a message, and whether
        the code surely puts one there; None when it holds nothing such. An
        annotation `list` alone is not sure: a tuple is often passed for it.
        With `hashed` (the object's hash hashes its fields), a list, dict or
        set the constructor is given counts too."""
        for ref in field.annotation:
            if ref.dotted in ARRAY_TYPES:
                return f"an array (annotated `{ref.dotted}`)", True
        if field.value is not None:
            kind = self.symbols.unhashable_kind(field.value)
            if kind:
                return (_array_made(field.value) if kind == "array" else f"a {kind}, which is mutable"), True
            returned = self._returned(field.value)
            if returned:
                return returned, True
        # What the constructor is given, unless construction assigns the field again (`__post_init__` converting it).
        converted = any(other.name == field.name and other.per_instance for other in self.classes.fields(cls))
        factory = field.value.keyword("default_factory") if field.value is not None and field.value.dotted in FIELD_SPECIFIERS else None
        if factory is not None and factory.dotted in CONTAINER_TYPES and not converted:
            # `field(default_factory=dict)`: a new dict in every object built without one.
            sites, given = self.constructions(cls), self.construction_arguments(cls, field)
            if len(given) < len(sites) or not sites:
                kind = CONTAINER_TYPES[factory.dotted]
                return f"a {kind} (`default_factory={_short(factory.dotted)}`), which is mutable", True
        for path, given in self.construction_arguments(cls, field) if hashed and not converted else ():
            kind = self.symbols.unhashable_kind(given)
            if kind:
                return f"{_a(kind)} (passed at {place_named(path, given.location.line, given.location.column)})", True
            returned = self._returned(given)
            if returned:
                return f"{returned}, passed at {place_named(path, given.location.line, given.location.column)}", True
        for ref in field.annotation:
            if ref.dotted in CONTAINER_TYPES:
                return f"a {CONTAINER_TYPES[ref.dotted]} (annotated `{_short(ref.dotted)}`)", False
        for held in self.held_classes(field):
            traits = self.classes.traits(held)
            if traits is None or traits.hashing == SINGLETON:
                continue
            if traits.mutable or traits.hashing in (IDENTITY, UNHASHABLE):
                because = traits.mutable_because if traits.mutable else traits.hashing_because
                name = held.rpartition(".")[2]
                return f"{'an' if name[:1] in 'AEIOU' else 'a'} `{name}`, which is not static-safe ({because})", False
        return None

    def container_kind(self, cls: str, path: tuple[str, ...], depth: int = 3) -> str:
        """"list", "dict", "set", "bytearray" or "array" when the field at `path`
        of a `cls` instance surely holds one (through the objects its fields hold); else ""."""
        name, rest = path[0], path[1:]
        for field in self.classes.fields(cls):
            if field.name != name:
                continue
            if rest:
                if depth:
                    for inner in self.held_classes(field):
                        kind = self.container_kind(inner, rest, depth - 1)
                        if kind:
                            return kind
                continue
            held = self._field_holds(cls, field)
            if held is not None and held.kind in (ARRAY, MUTABLE) and not held.what.startswith("a `"):
                return "array" if held.kind == ARRAY else held.what.split()[1]
        return ""

    # --- callables made anew ------------------------------------------------------------------------

    def per_instance_callable(self, value: f.Value | None, class_qualname: str) -> str | None:
        """What per-instance callable `value` is (for a message), or None."""
        if value is None:
            return None
        if value.kind == f.LAMBDA:
            return "a lambda"
        if value.kind == f.CALL and value.dotted == PARTIAL:
            return "a `functools.partial` object"
        if value.kind == f.OTHER and value.literal == f.FALLBACK and value.args:
            made = [self.per_instance_callable(arg, class_qualname) for arg in value.args]
            return made[0] if None not in made else None  # `self._relu if relu else self._tanh`
        if value.kind == f.CALL and class_qualname and value.ref is not None and value.ref.is_local:
            return self._returned_callable(value.ref, class_qualname)
        if value.kind != f.NAME or value.ref is None:
            return None
        ref = value.ref
        if not ref.is_local:
            nested = self.symbols.functions.get(ref.name)
            if nested is not None and ref.name.rpartition(".")[0] in self.symbols.functions:
                return f"the nested function `{nested.name}`"
            # `Class.method` is a plain function; a method of an object bound at
            # module level is equal every time it is taken (same `__self__`).
            return None
        base = ref.parent
        if base is None:
            return None
        if class_qualname:
            is_self = base.name == "self" and not base.attributes
            owners = self.symbols.instance_classes(base) or ((class_qualname,) if is_self else ())
        else:
            # At a construction site, a method of a long-lived object (the caller's
            # `self`, a parameter) is equal each time it is taken: only an object
            # built right there makes a new one each time.
            owners = tuple(
                cls for binding in self.symbols.bindings.get(base, ()) if (cls := self.symbols.constructed_class(binding.value))
            )
        for owner in owners:
            method = self.symbols.find_method(owner, ref.last)
            if method is None or not method.is_instance_method or method.is_property:
                continue  # a property gives its value, compared as such
            if not self.symbols.inherits(owner, EQUINOX_MODULES):
                return f"the bound method `{base.dotted}.{ref.last}`"
        return None

    def fresh_class_name(self, call: f.Value) -> str | None:
        """`make_opt(lr)`, a project factory every `return` of which builds a
        value-compared object (a NamedTuple, a frozen dataclass) holding a
        function the factory makes on each call (a nested `def`, a lambda): the
        class's name for a message, as each call gives an object unequal to the
        last; None otherwise."""
        factory = self.symbols.lookup_function(call.ref) if call.kind == f.CALL else None
        if factory is None or not factory.returns or any((d.func or d).dotted in CACHING for d in factory.decorators):
            return None  # `@functools.lru_cache`: the same object for the same arguments
        built = set()
        for returned in factory.returns:
            cls = self.symbols.constructed_class(returned)
            traits = self.classes.traits(cls) if cls is not None else None
            if traits is None or traits.hashing != VALUE:
                return None
            given = (*returned.args, *(value for _, value in returned.keywords))
            if not any(self.per_instance_callable(value, "") for value in given):
                return None
            built.add(cls)
        return f"`{built.pop().rpartition('.')[2]}`" if len(built) == 1 else None

    def bound_to_self(self, value: f.Value | None) -> str | None:
        """The class of the caller's `self` when `value` is one of its bound
        methods (`Cfg("mean", self._helper)` in a method), or None."""
        if value is None or value.kind != f.NAME or value.ref is None or len(value.ref.attributes) != 1:
            return None
        function = self.symbols.functions.get(value.ref.function)
        if function is None or not function.is_instance_method or value.ref.name != function.self_name:
            return None
        cls = function.class_qualname
        method = self.symbols.find_method(cls, value.ref.last)
        if method is None or not method.is_instance_method or method.is_property:
            return None
        return None if self.symbols.inherits(cls, EQUINOX_MODULES) else cls

    def stored_method(self, value: f.Value | None, class_qualname: str) -> str | None:
        """A callable stored on an object of `class_qualname` that is bound to some
        object: one made per instance (see `per_instance_callable`), or a bound
        method of an object a field holds (`self.component.run`), whose class is
        the field's, or that of the annotated parameter it was given."""
        made = self.per_instance_callable(value, class_qualname)
        if made is not None or value is None or value.kind != f.NAME or value.ref is None:
            return made
        ref = value.ref
        function = self.symbols.functions.get(ref.function)
        if function is None or ref.name != function.self_name or len(ref.attributes) != 2:
            return None
        for field in self.classes.fields(class_qualname):
            if field.name != ref.attributes[0]:
                continue
            given = field.value.ref if field.value is not None and field.value.kind == f.NAME else None
            for held in [*self.held_classes(field), *(self.symbols.instance_classes(given) if given else ())]:
                method = self.symbols.find_method(held, ref.attributes[1])
                if method is not None and method.is_instance_method and not method.is_property:
                    return f"the bound method `self.{'.'.join(ref.attributes)}`"
        return None

    # --- what calls return --------------------------------------------------------------------------

    def returned_kind(self, call: f.Value, depth: int = 2) -> str:
        """"array", "list", "dict", "set" or "bytearray" when every `return` of
        the project function or method a call runs gives one (`make_noise(key)`,
        `self.helper.sample(key)`); else ""."""
        functions = self.called_functions(call) if call.kind == f.CALL and depth else []
        if not functions or not all(function.returns for function in functions):
            return ""
        kinds = {
            self.symbols.unhashable_kind(returned) or self.returned_kind(returned, depth - 1)
            for function in functions
            for returned in function.returns
        }
        return kinds.pop() if len(kinds) == 1 else ""

    def _returned(self, call: f.Value) -> str:
        """What a call of a project function gives, for a message, when it is
        an array or a mutable container, or a value-hashed object holding an
        array (`return Sample(mean, std)`); else ""."""
        if call.kind != f.CALL or call.ref is None:
            return ""
        kind = self.returned_kind(call)
        if kind:
            return f"{_a(kind)} (returned by `{self._written(call)}(...)`)"
        struct = self._returned_struct(call)
        return f"an array, in the `{struct}` returned by `{self._written(call)}(...)`" if struct else ""

    def _returned_struct(self, call: f.Value) -> str:
        """The name of the value-hashed class every `return` of the function a
        call runs builds with an array (`return Sample(jax.random.normal(...), ...)`):
        hashing such an object hashes the array."""
        built = set()
        functions = self.called_functions(call)
        for returned in (value for function in functions for value in function.returns or (None,)):
            cls = self.symbols.constructed_class(returned) if returned is not None else None
            traits = self.classes.traits(cls) if cls is not None else None
            if traits is None or traits.hashing != VALUE or self.classes.equality_method(cls, "__hash__") is not None:
                return ""
            given = [*returned.args, *(value for _, value in returned.keywords)]
            if not any(self.symbols.unhashable_kind(value) == "array" for value in given):
                return ""
            built.add(cls)
        return built.pop().rpartition(".")[2] if len(built) == 1 else ""

    def _written(self, call: f.Value) -> str:
        """A call's callee as written: `self.helper.sample`, `make_noise`."""
        ref = call.ref
        return ref.dotted if ref.is_local else self.symbols.short_name(ref.name) if ref.name in self.symbols.functions else ref.last

    def returned_classes(self, call: f.Value) -> list[str]:
        """The project classes a call of a project function or method returns
        objects of, when every `return` of each builds one (see `Symbols.returned_classes`)."""
        functions = self.called_functions(call)
        found = [self.symbols.returned_classes(function) for function in functions]
        return [] if not found or not all(found) else list(dict.fromkeys(cls for classes in found for cls in classes))

    def called_functions(self, call: f.Value) -> list[f.FunctionFacts]:
        """The project functions a call may run: one named (`make(...)`,
        `Sampler.sample(...)`), or the method of each project class its receiver
        may hold (`self.sample(...)`, `sampler.sample(...)`, `self.helper.sample(...)`);
        [] when one of them is not known."""
        ref = call.ref
        function = self.symbols.lookup_function(ref)
        if function is not None or ref is None or ref.parent is None:
            return [function] if function is not None else []
        owners = self.receiver_classes(ref.parent)
        methods = [self.symbols.find_method(owner, ref.last) for owner in owners]
        if not methods or any(method is None or not method.is_instance_method or method.is_property for method in methods):
            return []
        return methods

    def receiver_classes(self, ref: f.Ref) -> tuple[str, ...]:
        """The project classes an object named in a method may be: `self`, a
        parameter or a local (see `Symbols.instance_classes`), or `self.helper`,
        by what the field is given (an object built, an annotated parameter, the
        constructor's arguments)."""
        function = self.symbols.functions.get(ref.function) if ref.is_local else None
        if function is None or len(ref.attributes) != 1 or ref.name != function.self_name:
            return self.symbols.instance_classes(ref)
        found: list[str] = []
        for field in self.classes.fields(function.class_qualname):
            if field.name != ref.attributes[0]:
                continue
            given = [value for _, value in self.construction_arguments(function.class_qualname, field)]
            for value in [field.value, *given] if field.value is not None else given:
                found.extend(self.symbols.value_classes(value))
            if len(field.annotation) == 1 and (named := self.symbols.lookup_class(field.annotation[0])) is not None:
                found.append(named)
        return tuple(dict.fromkeys(found))

    def _returned_callable(self, ref: f.Ref, class_qualname: str) -> str | None:
        """`self._pick()`: a method of the class every `return` of which is a callable made per instance."""
        base = ref.parent
        caller = self.symbols.functions.get(base.function) if base is not None else None
        if caller is None or base.attributes or base.name != caller.self_name:
            return None
        method = self.symbols.find_method(class_qualname, ref.last)
        if method is None or not method.is_instance_method or not method.returns:
            return None
        made = [self.per_instance_callable(returned, class_qualname) for returned in method.returns]
        return f"{made[0]} (returned by `self.{ref.last}()`)" if None not in made else None

    # --- what a tree's structure holds ------------------------------------------------------------

    def value_holds(self, value: f.Value, cls: str | None = None, subject: f.Ref | None = None) -> Held | None:
        """What an expression put in a tree's structure is, when it is a hazard.

        `subject` is the object being flattened (its fields are looked up in
        `cls`); None when the expression is not in a flatten.
        """
        if value.kind == f.OTHER and value.literal == f.FALLBACK:
            # `items or []`: the list, on the default path.
            return next((held for arg in value.args if (held := self.value_holds(arg, cls, subject))), None)
        if value.kind in _DISPLAYS:
            return Held(MUTABLE, f"a {_DISPLAYS[value.kind]}")
        if value.kind == f.LAMBDA:
            return Held(UNSTABLE, "a lambda, a new function each time it is made")
        if value.kind == f.CALL:
            return self._call_holds(value)
        if value.kind == f.OTHER and self.symbols.unhashable_kind(value) == "array":
            return Held(ARRAY, _array_made(value))
        if value.kind != f.NAME or value.ref is None:
            return None
        if subject is not None and value.ref.base == subject.base and value.ref.attributes and not subject.attributes:
            if len(value.ref.attributes) > 1 or cls is None:
                return None
            attribute = value.ref.attributes[0]
            method = self.symbols.find_method(cls, attribute)
            if method is not None:
                if method.is_instance_method and not method.is_property and not self.symbols.inherits(cls, EQUINOX_MODULES):
                    return Held(UNSTABLE, f"the bound method `{attribute}`, a new object on each flatten")
                return self._property_holds(method) if method.is_property else None
            body = self.symbols.class_attribute(cls, attribute)
            if body is not None and body.value is not None and body.value.kind == f.LAMBDA:
                return Held(UNSTABLE, f"the bound method `{attribute}` (a lambda in the class body), a new object on each flatten")
            return self.attribute_holds(cls, attribute)
        made = self.per_instance_callable(value, "" if subject is not None else cls or "")
        if made is not None and (not made.startswith("the bound method") or subject is None):
            return Held(UNSTABLE, f"{made}, a new function each time it is made")
        kind = self.symbols.unhashable_kind(value)
        if kind == "array":
            return Held(ARRAY, f"an array (`{value.ref.last}`)")
        return Held(MUTABLE, f"a {kind}") if kind else None

    def _property_holds(self, method: f.FunctionFacts) -> Held | None:
        """A property read in a flatten gives what it returns: an array when
        every `return` that is not `None` makes one (`return np.asarray(m)[None]`),
        a new object on each flatten."""
        returned = [value for value in method.returns if not (value.kind == f.CONSTANT and value.literal is None)]
        if returned and all(self.symbols.unhashable_kind(value) == "array" for value in returned):
            return Held(ARRAY, f"an array (returned by the property `{method.name}`)")
        return None

    def _call_holds(self, call: f.Value) -> Held | None:
        kind = self.symbols.unhashable_kind(call)
        if kind == "array":
            return Held(ARRAY, _array_made(call))
        if kind:
            return Held(MUTABLE, f"a {kind}")
        if call.dotted == PARTIAL:
            return Held(UNSTABLE, "a `functools.partial`, a new object each time it is made")
        if call.dotted == "builtins.object":
            return Held(UNSTABLE, "a new `object()`, equal only to itself")
        returned = self._returned(call)
        if returned:
            return Held(ARRAY if returned.startswith("an array") else MUTABLE, returned)
        built = self.symbols.constructed_class(call) or self._built_by_default_factory(call)
        traits = self.classes.traits(built) if built is not None else None
        if traits is not None and traits.hashing == IDENTITY:
            name = built.rpartition(".")[2]
            return Held(UNSTABLE, f"a new `{name}`, which compares by identity ({traits.hashing_because})")
        return None

    def _built_by_default_factory(self, call: f.Value) -> str | None:
        """`self.make(...)` in a method, where `make` is a field of the class whose
        default is a project class (`make: Callable = attr.field(default=Sampler)`)
        and no analysed construction of the class gives another: a call of that
        class, which builds an object of it."""
        ref = call.ref
        if ref is None or not ref.is_local or len(ref.attributes) != 1:
            return None
        function = self.symbols.functions.get(ref.function)
        if function is None or not function.is_instance_method or ref.name != function.self_name:
            return None
        owner = function.class_qualname
        for field in self.classes.fields(owner):
            if field.name != ref.last:
                continue
            default = field.value
            if field.declared and default is not None and default.kind == f.CALL and default.dotted in _DEFAULT_GIVERS:
                default = default.keyword("default")
            if not field.declared or default is None or default.kind != f.NAME or default.ref is None:
                return None
            built = self.symbols.lookup_class(default.ref)
            return built if built is not None and not self.construction_arguments(owner, field) else None
        return None

    def attribute_holds(self, cls: str, attribute: str) -> Held | None:
        """What the field `attribute` of `cls` holds, from its annotation, its
        default, what construction assigns, what construction sites pass, and
        the arrays a setter that names it is given (`given_by_name`)."""
        held = None
        for field in self.classes.fields(cls):
            if field.name == attribute:
                held = self._field_holds(cls, field)
                if held is not None:
                    break
        if held is None or held.kind != ARRAY:
            # An array given later through a setter that names the field (`obj.replace("info", arrays)`).
            for path, given in self.given_by_name(cls, attribute):
                found = self._holds_arrays(given)
                if found is not None:
                    return replace(found, where=(path, given.location))
        return held

    def given_by_name(self, cls: str, attribute: str) -> list[tuple[str, f.Value]]:
        """What the analysed calls of a name setter of `cls` give for `attribute`,
        as (path, value). A name setter is an instance method that sets on
        `self`, or on a copy it makes of `self`, the attribute named by one of
        its parameters to the value of another (`def replace(self, name, value):
        new = copy.copy(self); object.__setattr__(new, name, value)`); a call
        counts when it passes `attribute` as a literal string for the name, on
        an object whose class is `cls` or related to it, or, when its class is
        not known, in a file that defines or imports `cls`."""
        symbols, found = self.symbols, []
        for method, calls in self._name_setters().items():
            if symbols.find_method(cls, symbols.functions[method].name) is not symbols.functions[method]:
                continue
            for path, receiver, name, value in calls:
                if name != attribute:
                    continue
                known = symbols.instance_classes(receiver)
                if any(cls in symbols.mro(other) or other in symbols.mro(cls) for other in known) or (
                    not known and self._names_class(path, cls) and self._only_lineage_defines(cls, method)
                ):
                    found.append((path, value))
        return found

    def _only_lineage_defines(self, cls: str, method: str) -> bool:
        """No project class outside `cls`'s bases and subclasses defines a method of that name."""
        lineage = {*self.symbols.mro(cls), *self.symbols.all_subclasses(cls)}
        return set(self.symbols.classes_defining(method.rpartition(".")[2])) <= lineage

    def _names_class(self, path: str, cls: str) -> bool:
        """The file defines `cls`, or imports it or its module."""
        if self.symbols.path_of[cls] == path:
            return True
        module = self.symbols.module_of(cls).module
        return any(
            dotted == module or self.symbols.lookup_class(f.Ref(dotted)) == cls
            for _, dotted in self.symbols.modules[path].imports
        )

    def _name_setters(self) -> dict[str, list[tuple[str, f.Ref, str, f.Value]]]:
        """The project's name setters (see `given_by_name`), each with its calls
        that name an attribute by a literal string: (path, the object called on,
        the name, the value)."""
        if self._setters is None:
            self._setters = {}
            for method, (name_parameter, value_parameter) in self._find_name_setters().items():
                function, calls = self.symbols.functions[method], []
                for path, _, call in self.symbols.calls.where(last=(function.name,)):
                    receiver = call.ref.parent if call.ref is not None else None
                    name = _argument(call, function.positional, name_parameter, implicit=1)
                    value = _argument(call, function.positional, value_parameter, implicit=1)
                    if receiver is None or name is None or value is None or name.kind != f.CONSTANT:
                        continue
                    if isinstance(name.literal, str):
                        calls.append((path, receiver, name.literal, value))
                self._setters[method] = calls
        return self._setters

    def _find_name_setters(self) -> dict[str, tuple[str, str]]:
        """method -> (the parameter that names the attribute, the one that gives its value)."""
        symbols, setters = self.symbols, {}
        for writes in symbols.writes.values():
            for write, _ in writes:
                function = symbols.functions.get(write.function)
                if write.named_by is None or function is None or not function.is_instance_method:
                    continue
                parameters = function.positional[1:]
                value = write.value.ref if write.value is not None and write.value.kind == f.NAME else None
                if not all(
                    ref is not None and ref.function == function.qualname and not ref.attributes and ref.name in parameters
                    for ref in (write.named_by, value)
                ):
                    continue
                own, target = f.Ref(function.self_name, function.qualname), write.target
                if target == own or self._copy_of(target, own):
                    setters[function.qualname] = (write.named_by.name, value.name)
        return setters

    def _copy_of(self, target: f.Ref, own: f.Ref) -> bool:
        """A local of the method bound only to calls given `self` (`new = copy.copy(self)`)."""
        bindings = self.symbols.bindings.get(target, ()) if target.function == own.function and not target.attributes else ()
        return bool(bindings) and all(
            binding.value.kind == f.CALL and any(arg.ref == own for arg in binding.value.args) for binding in bindings
        )

    def _holds_arrays(self, value: f.Value) -> Held | None:
        """An array, or a list, tuple or dict display with one among its items
        (through the name it was bound to): a tree's structure cannot compare it."""
        if self.symbols.unhashable_kind(value) == "array":
            return Held(ARRAY, _array_made(value) if value.kind != f.NAME else f"an array (`{value.ref.last}`)")
        displays = [value]
        if value.kind == f.NAME and value.ref is not None and value.ref.is_local and not value.ref.attributes:
            displays = [binding.value for binding in self.symbols.bindings.get(value.ref, ())]
        for display in displays:
            if display.kind not in (f.DICT, f.LIST, f.TUPLE):
                continue
            for item in (*display.args, *(given for _, given in display.keywords)):
                if self.symbols.unhashable_kind(item) == "array":
                    kind = {f.DICT: "dict", f.LIST: "list", f.TUPLE: "tuple"}[display.kind]
                    return Held(ARRAY, f"a {kind} holding {_array_made(item)}")
        return None

    def _field_holds(self, cls: str, field: Field) -> Held | None:
        where = (field.path, field.location)
        held = _annotation_holds(field.annotation)
        if held is not None:
            return replace(held, where=where)
        value = field.value
        if value is not None and value.kind == f.CALL and value.dotted in FIELD_SPECIFIERS:
            factory = value.keyword("default_factory")
            if factory is not None and factory.dotted in CONTAINER_TYPES:
                kind = CONTAINER_TYPES[factory.dotted]
                return Held(MUTABLE, f"a {kind} (`default_factory={_short(factory.dotted)}`)", where)
            value = value.keyword("default") or (value.args[0] if value.dotted == NNX_STATIC and value.args else None)
        if value is not None:
            parameter = self.init_parameter(value)
            if parameter is not None:
                held = _annotation_holds(parameter.annotation) or self._mutable_class_held(
                    self.symbols.annotated_classes(parameter)
                )
                if held is not None:
                    return replace(held, where=where)
            else:
                held = self.value_holds(value, cls)
                # A callable made while an instance is built is made per instance;
                # one in the class body, or an object made to be unique (a marker),
                # is the same object in every flatten.
                if held is not None and (
                    held.kind != UNSTABLE or field.per_instance and (value.kind != f.CALL or value.dotted == PARTIAL)
                ):
                    return replace(held, where=(field.path, value.location))
        for path, given in self.construction_arguments(cls, field):
            held = self.value_holds(given)
            if held is not None and held.kind != UNSTABLE:
                return replace(held, where=(path, given.location))
        held = self._mutable_class_held(self.held_classes(field))
        return replace(held, where=where) if held is not None else None

    def _mutable_class_held(self, classes) -> Held | None:
        """An object of a mutable project class that some code changes; whether
        a change can come after the tree was flattened is evidence, for the rules."""
        for inner in classes:
            traits = self.classes.traits(inner)
            changes = self.state.changes(inner) if traits is not None and traits.mutable else []
            if changes:
                name = inner.rpartition(".")[2]
                return Held(MUTABLE, f"a `{name}`, which is mutable", changes=tuple((inner, change) for change in changes))
        return None

    def aux_holds(self, value: f.Value, cls: str | None, subject: f.Ref | None) -> Held | None:
        """What an element of `aux_data` holds, when it is a hazard. A container
        built in the flatten itself is compared by value and held by nobody else,
        so no one can change it in place: only stored ones are mutable hazards."""
        held = self.value_holds(value, cls, subject)
        if held is not None and held.kind == MUTABLE and value.kind in (f.LIST, f.DICT, f.SET, f.CALL):
            return None
        return held

    # --- objects a framework splits into leaves ------------------------------------------------------

    def static_leaves(self, cls: str, depth: int = 2) -> list[tuple[Field, str, str]]:
        """The plain objects a pytree or graph node holds, which a framework that
        splits it (`eqx.filter_jit`, `nnx.jit`) keys by their own hash: (field,
        class, "") for an object of a project class, (field, its object's
        class, method) for a bound method. A pytree held is split in turn."""
        symbols, found = self.symbols, []
        for field in self.classes.fields(cls):
            given = [value for _, value in self.construction_arguments(cls, field)]
            if field.value is not None:
                given.append(field.value)
            inner = set(self.held_classes(field))
            for value in given:
                methods = symbols.bound_methods(value)
                found.extend((field, owner, method.name) for owner, method in methods)
                if not methods:
                    inner.update(symbols.value_classes(value))
            for held in sorted(inner):
                if held == cls or self.classes.traits(held) is None:
                    continue
                if symbols.is_pytree(held) or symbols.inherits(held, GRAPH_NODES):
                    if depth:
                        found.extend(self.static_leaves(held, depth - 1))
                    continue
                found.append((field, held, ""))
        return found

    # --- construction sites -----------------------------------------------------------------------

    def constructions(self, cls: str) -> list[tuple[str, f.Value]]:
        """The analysed calls that build `cls`, as (path, call)."""
        if cls not in self.symbols.classes:
            return []
        known = self._constructions.get(cls)
        if known is None:
            known = self._constructions[cls] = [(path, call) for path, _, call in self.symbols.calls.where(callees=(cls,))]
        return known

    def dispatched_class(self, call: f.Value) -> str | None:
        """The class a call of a registry's `make(name, ...)` builds: a project
        function that builds one class or another by comparing its parameter
        with strings (`if env_id == "SMAX": env = SMAX(**kw)`), or by looking
        it up in a dict of classes keyed by strings (`ENVS[env_id](**kw)`),
        called with a string for that parameter that selects one class."""
        if call.kind != f.CALL:
            return None
        function = self.symbols.lookup_function(call.ref)
        if function is None or function.class_qualname:
            return None
        for parameter, table in self._dispatch_table(function.qualname).items():
            given = _argument(call, function.positional, parameter)
            if given is not None and given.kind == f.CONSTANT and isinstance(given.literal, str):
                chosen = table.get(given.literal, set())
                if len(chosen) == 1:
                    return next(iter(chosen))
        return None

    def _dispatch_table(self, function: str) -> dict[str, dict[str, set[str]]]:
        """For each parameter of `function` it dispatches on: string -> the classes built for it."""
        known = self._dispatches.get(function)
        if known is not None:
            return known
        known = self._dispatches[function] = {}
        facts = self.symbols.functions.get(function)
        path = self.symbols.path_of.get(function)
        if facts is None or path is None:
            return known
        module = self.symbols.modules[path]
        parameters = {parameter.name for parameter in facts.parameters}
        calls = {call.location: call for enclosing, call in module.calls if enclosing == function}
        for dispatch in module.dispatches:
            if dispatch.function != function or dispatch.name not in parameters:
                continue
            table = known.setdefault(dispatch.name, {})
            if dispatch.registry is None:
                call = calls.get(dispatch.location)
                cls = self.symbols.constructed_class(call) if call is not None else None
                if cls is not None:
                    table.setdefault(dispatch.literal, set()).add(cls)
                continue
            for binding in self.symbols.bindings.get(self.symbols.canonical(dispatch.registry), ()):
                if binding.value.kind != f.DICT:
                    continue
                for key, item in binding.value.keywords:
                    cls = self.symbols.lookup_class(item.ref) if item.kind == f.NAME else None
                    if cls is not None:
                        table.setdefault(key, set()).add(cls)
        return known

    def dispatched_constructions(self, cls: str) -> list[tuple[str, f.Value]]:
        """The analysed calls of a registry's `make("name", ...)` whose string selects `cls`, as (path, call)."""
        if self._dispatched is None:
            self._dispatched = {}
            makers = {dispatch.function for module in self.symbols.modules.values() for dispatch in module.dispatches}
            if makers:
                for path, module in self.symbols.modules.items():
                    for _, call in module.calls:
                        function = self.symbols.lookup_function(call.ref) if call.ref is not None and not call.ref.is_local else None
                        if function is not None and function.qualname in makers and (chosen := self.dispatched_class(call)):
                            self._dispatched.setdefault(chosen, []).append((path, call))
        return self._dispatched.get(cls, [])

    def classes_built_in(self, function: str) -> set[str]:
        """The project classes whose objects calls in `function` build."""
        found = set()
        for ref in self.symbols.calls.made_in(function):
            canonical = self.symbols.canonical(ref).name if not ref.is_local else ""
            if canonical in self.symbols.classes:
                found.add(canonical)
        return found

    def construction_arguments(self, cls: str, field: Field) -> list[tuple[str, f.Value]]:
        """What the analysed calls of the class pass for a field, as (path, argument)."""
        return [(path, given) for path, _, given in self.construction_sites(cls, field)]

    def made_per_construction(self, cls: str, field: Field) -> list[tuple[str, f.Value, Held]]:
        """The calls of the class that give a field a value made right there and
        equal only to itself (a lambda, a nested function, a `partial`, a new
        identity-compared object), as (path, call, what it holds): each run of
        the code around the call makes another."""
        found = []
        for path, call, given in self.construction_sites(cls, field):
            held = self.value_holds(given)
            if held is not None and held.kind == UNSTABLE:
                found.append((path, call, replace(held, where=(path, given.location))))
        return found

    def construction_sites(self, cls: str, field: Field) -> list[tuple[str, f.Value, f.Value]]:
        """What the analysed calls of the class pass for a field, as (path, call, argument)."""
        init = self.symbols.find_method(cls, "__init__")
        if init is not None:
            parameter = self.init_parameter(field.value) if field.value is not None else None
            if parameter is None:
                return []
            name, positional, implicit = parameter.name, init.positional, 1
        elif field.declared:
            name, positional, implicit = field.name, self.init_fields(cls), 0
        else:
            return []
        found = []
        for path, call in self.constructions(cls):
            given = _argument(call, positional, name, implicit)
            if given is not None:
                found.append((path, call, given))
        return found

    def init_fields(self, cls: str) -> list[str]:
        """The fields a generated `__init__` takes by position, in order: the
        bases' first, each once; `ClassVar`s, `init=False` and keyword-only
        fields left out."""
        order: list[str] = []
        for owner in reversed(self.symbols.mro(cls)):
            if not self.classes.is_dataclass_like(owner):
                continue
            keyword_only = _keyword_only(self.symbols.classes[owner])
            for attribute in self.symbols.classes[owner].attributes:
                if attribute.name in order or not attribute.annotation or attribute.name.startswith("__"):
                    continue
                if any(ref.dotted in _KW_ONLY for ref in attribute.annotation):
                    keyword_only = True
                    continue
                if keyword_only or _not_in_init(attribute.value) or any(
                    ref.dotted == "typing.ClassVar" for ref in attribute.annotation
                ):
                    continue
                order.append(attribute.name)
        return order

    def init_parameter(self, value: f.Value) -> f.Parameter | None:
        """The constructor parameter a field is assigned from (`self.mask = mask`)."""
        if value.kind != f.NAME or value.ref is None or not value.ref.is_local or value.ref.attributes:
            return None
        facts = self.symbols.functions.get(value.ref.function)
        if facts is None or facts.class_qualname == "" or facts.name != "__init__":
            return None
        return next((parameter for parameter in facts.parameters if parameter.name == value.ref.name), None)


def _annotation_holds(annotation: tuple[f.Ref, ...]) -> Held | None:
    for ref in annotation:
        if ref.dotted in ARRAY_TYPES:
            return Held(ARRAY, f"an array (annotated `{ref.dotted}`)")
        if ref.dotted in CONTAINER_TYPES:
            return Held(MUTABLE, f"a {CONTAINER_TYPES[ref.dotted]} (annotated `{_short(ref.dotted)}`)")
    return None


def _argument(call: f.Value, positional: list[str], parameter: str, implicit: int = 0) -> f.Value | None:
    """What a call passes for `parameter`, by keyword or by its place among
    `positional`, the first `implicit` of which the call does not write
    (`self` of a method); None when a `*args` before it hides which."""
    given = call.keyword(parameter)
    if given is not None or parameter not in positional:
        return given
    position = positional.index(parameter) - implicit
    if 0 <= position < len(call.args) and all(arg.literal != "*" for arg in call.args[: position + 1]):
        return call.args[position]
    return None


def _keyword_only(cls: f.ClassFacts) -> bool:
    """`@dataclass(kw_only=True)`: no field is taken by position."""
    return any(
        (keyword := decorator.keyword("kw_only")) is not None and keyword.literal is True for decorator in cls.decorators
    )


def _not_in_init(value: f.Value | None) -> bool:
    """`field(init=False)` or `field(kw_only=True)`: not a positional argument of `__init__`."""
    if value is None or value.kind != f.CALL:
        return False
    init, kw_only = value.keyword("init"), value.keyword("kw_only")
    return (init is not None and init.literal is False) or (kw_only is not None and kw_only.literal is True)


def _array_made(value: f.Value) -> str:
    """How an array was made, for a message: "an array (`jnp.asarray(...)`)"."""
    return f"an array (`{_short(value.dotted)}(...)`)" if value.kind == f.CALL else "an array (computed from one)"


def _a(kind: str) -> str:
    return f"{'an' if kind == 'array' else 'a'} {kind}"


def _short(ref: str) -> str:
    """`numpy.asarray` -> `np.asarray`, as people write it."""
    for long, short in (("jax.numpy.", "jnp."), ("numpy.", "np."), ("builtins.", "")):
        if ref.startswith(long):
            return short + ref[len(long) :]
    return ref
