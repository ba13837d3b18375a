"""The project's names: what each `Ref` stands for, across modules.

Turns a ref into the class, function, bindings and writes it names (through
`__init__.py` re-exports), orders a class's project bases (`mro`), and tells
which classes a name or an expression can hold an instance of.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property
from typing import Iterable

from jaxcheck import facts as f
from jaxcheck.facts import Ref
from jaxcheck.model.calls import Calls
from jaxcheck.model.jax_api import (
    ABSTRACT_BASES,
    ABSTRACT_DECORATORS,
    ARRAY_FILTERS,
    CALL_REGISTRATIONS,
    CLASS_REGISTRATIONS,
    LIBRARIES,
    LIBRARY_BASE_METHODS,
    LIBRARY_UNHASHABLE,
    LIBRARY_UNHASHABLE_RESULTS,
    PARTITIONS,
    PYTREE_BASES,
    PYTREE_DECORATORS,
    REGISTER_DATACLASS,
    UNHASHABLE_BUILTINS,
    is_array_constructor,
    tree_util_name,
)

REGISTRATIONS = {**CALL_REGISTRATIONS, **CLASS_REGISTRATIONS}

_DISPLAYS = {f.LIST: "list", f.DICT: "dict", f.SET: "set"}
_MAX_REEXPORTS = 16


class Symbols:
    """Classes, functions, bindings and writes of the analysed modules, by name."""

    def __init__(self, modules: Iterable[f.ModuleFacts], import_roots: dict[str, str] | None = None) -> None:
        self.modules = {module.path: module for module in modules}
        # Names imported from a folder inside the project (a monorepo's service),
        # never a library's name.
        self.import_roots = {name: module for name, module in (import_roots or {}).items() if name not in LIBRARIES}
        self.classes: dict[str, f.ClassFacts] = {}
        self.functions: dict[str, f.FunctionFacts] = {}
        self.path_of: dict[str, str] = {}  # class or function qualname -> path
        self.bindings: dict[Ref, list[f.Binding]] = defaultdict(list)
        self.writes: dict[Ref, list[tuple[f.AttributeWrite, str]]] = defaultdict(list)  # by the object written to
        self.item_writes: list[tuple[f.ItemWrite, str]] = []
        self._bound_by_value: dict[tuple, list[Ref]] = {}
        self.subclasses: dict[str, list[str]] = defaultdict(list)  # base qualname -> project subclasses
        self._exports = {module.module: dict(module.imports) for module in self.modules.values()}
        self._canonical: dict[str, Ref] = {}  # a global's name -> the global it stands for
        self._mro: dict[str, list[str]] = {}
        self._instance_classes: dict[Ref, tuple[str, ...]] = {}  # asked again for each call on the same object
        for module in self.modules.values():
            for cls in module.classes:
                self.classes[cls.qualname] = cls
                self.path_of[cls.qualname] = module.path
            for function in module.functions:
                self.functions[function.qualname] = function
                self.path_of[function.qualname] = module.path
            for binding in module.bindings:
                self.bindings[binding.ref].append(binding)
                if binding.value.kind == f.CALL:
                    self._bound_by_value.setdefault((module.path, binding.value.key), []).append(binding.ref)
            for write in module.attribute_writes:
                self.writes[write.target].append((write, module.path))
            self.item_writes.extend((write, module.path) for write in module.item_writes)
        for cls in self.classes.values():
            for base in self.bases(cls.qualname):
                if base in self.classes:
                    self.subclasses[base].append(cls.qualname)

    def writes_of(self, attribute: str) -> list[tuple[f.AttributeWrite, str]]:
        """Every `obj.<attribute> = ...` of the project, with its file (asked only of property setters)."""
        return [item for items in self.writes.values() for item in items if item[0].attribute == attribute]

    @cached_property
    def calls(self) -> Calls:
        """Every call of the project, found by what it calls."""
        return Calls(self.modules, self.canonical)

    # --- names --------------------------------------------------------------------------------

    def canonical(self, ref: Ref) -> Ref:
        """A global with re-exports followed: `pkg.Config` -> `pkg.settings.Config`."""
        if ref.is_local:
            return ref
        known = self._canonical.get(ref.name)  # by the name alone (a str keeps its hash): the result depends on nothing else
        if known is not None:
            return known
        result, seen = f.project_name(ref.name, self.import_roots), set()
        # Each step replaces a module's name by what it imports; a chain longer
        # than any real re-export (or one that grows: `from . import x as y`
        # loops) is cut short.
        while len(seen) < _MAX_REEXPORTS and result not in seen:
            if result in self.classes or result in self.functions or Ref(result) in self.bindings:
                break
            seen.add(result)
            parts = result.split(".")
            for end in range(len(parts) - 1, 0, -1):
                exports = self._exports.get(".".join(parts[:end]))
                if exports is not None:
                    target = exports.get(parts[end])
                    if target is not None:
                        result = f.project_name(".".join([target, *parts[end + 1 :]]), self.import_roots)
                    break
        known = self._canonical[ref.name] = Ref(result)
        return known

    def module_variable(self, ref: Ref) -> Ref | None:
        """The module-level variable a global name reads or writes: `pkg.mod.NAME`
        of `pkg.mod.NAME.attr`, where `pkg.mod` is an analysed module that binds
        NAME by assignment at its top level (not a `def`, class or submodule)."""
        if ref.is_local:
            return None
        parts = self.canonical(ref).name.split(".")
        for end in range(len(parts) - 1, 0, -1):
            if ".".join(parts[:end]) in self._exports:
                variable = Ref(".".join(parts[: end + 1]))
                bindings = self.bindings.get(variable, ())
                return variable if any(not binding.function for binding in bindings) else None
        return None

    def class_variable(self, ref: Ref) -> Ref | None:
        """The class attribute a global name reads or writes: `pkg.mod.Config.scale`
        of `Config.scale` or `Config.scale.x`, where `Config` is a project class whose
        body assigns `scale` (a value the class holds once for all its instances)."""
        if ref.is_local:
            return None
        parts = self.canonical(ref).name.split(".")
        for end in range(len(parts) - 1, 0, -1):
            cls = self.classes.get(".".join(parts[:end]))
            if cls is not None:
                name = parts[end]
                return Ref(f"{cls.qualname}.{name}") if any(attribute.name == name for attribute in cls.attributes) else None
        return None

    def is_module(self, ref: Ref) -> bool:
        """`ref` names an analysed module (`config` of `from pkg import config`)."""
        return not ref.is_local and not ref.attributes and self.canonical(ref).name in self._exports

    def lookup_class(self, ref: Ref | None) -> str | None:
        """The project class `ref` names."""
        if ref is None or ref.is_local:
            return None
        canonical = self.canonical(ref).name
        return canonical if canonical in self.classes else None

    def lookup_function(self, ref: Ref | None) -> f.FunctionFacts | None:
        if ref is None:
            return None
        if ref.is_local:
            return None
        return self.functions.get(self.canonical(ref).name)

    def module_of(self, qualname: str) -> f.ModuleFacts:
        return self.modules[self.path_of[qualname]]

    def short_name(self, qualname: str) -> str:
        """A class's or function's qualname without its module: `Vehicle.wheels`."""
        module = self.module_of(qualname).module
        return qualname[len(module) + 1 :] if qualname.startswith(module + ".") else qualname

    def bound_names(self, path: str, value: f.Value) -> list[Ref]:
        """The names a value in the module at `path` is assigned to."""
        return self._bound_by_value.get((path, value.key), [])

    # --- classes ------------------------------------------------------------------------------

    def bases(self, qualname: str) -> list[str | None]:
        """The dotted names of a class's bases, re-exports followed (None for one that is not a name)."""
        return [self.canonical(base).name if base is not None else None for base in self.classes[qualname].bases]

    def mro(self, qualname: str) -> list[str]:
        """The project classes a class looks attributes up in, itself first, in Python's order."""
        known = self._mro.get(qualname)
        if known is None:
            self._mro[qualname] = [qualname]  # a cycle of bases ends here
            known = self._mro[qualname] = _linearize(
                qualname, [self.mro(base) for base in self.bases(qualname) if base in self.classes]
            )
        return known

    def all_bases(self, qualname: str) -> set[str]:
        """The bases, all the way up, by name (`equinox.Module`, `builtins.object`),
        the project's own included: a library class keeps what jaxcheck knows of
        it when its source is part of the project. "" for one jaxcheck cannot name."""
        return {base or "" for cls in self.mro(qualname) for base in self.bases(cls)}

    def method(self, class_qualname: str, name: str) -> f.FunctionFacts | None:
        """A method defined in the class's own body."""
        return self.functions.get(f"{class_qualname}.{name}")

    def find_method(self, class_qualname: str, name: str) -> f.FunctionFacts | None:
        """The method `name` an instance of the class has, from its own body or a project base."""
        for cls in self.mro(class_qualname):
            method = self.method(cls, name)
            if method is not None:
                return method
        return None

    def methods(self, class_qualname: str) -> list[f.FunctionFacts]:
        """Every method defined in the class or its project bases."""
        return [self.functions[method] for cls in self.mro(class_qualname) for method in self.classes[cls].methods]

    def class_attribute(self, class_qualname: str, name: str) -> f.ClassAttribute | None:
        """A name given in the body of the class or of a project base, first found in the MRO."""
        for cls in self.mro(class_qualname):
            for attribute in self.classes[cls].attributes:
                if attribute.name == name:
                    return attribute
        return None

    def is_pytree(self, qualname: str) -> bool:
        """Registered as a pytree (so split into leaves by transforms), or a tuple type."""
        for cls in self.mro(qualname):
            if cls in self.registered:
                return True
            if any(decorator.dotted in PYTREE_DECORATORS for decorator in self.classes[cls].decorators):
                return True
        return bool(self.all_bases(qualname) & PYTREE_BASES)

    @cached_property
    def registered(self) -> set[str]:
        """The classes a call registers as pytrees: `register_pytree_node(C, ...)`, `register_dataclass(C)`."""
        found = set()
        for _, _, call in self.calls.where(lambda name: tree_util_name(name, REGISTRATIONS) or name in REGISTER_DATACLASS):
            if call.args:
                cls = self.lookup_class(call.args[0].ref) if call.args[0].kind == f.NAME else None
                if cls is not None:
                    found.add(cls)
        return found

    @cached_property
    def registered_static(self) -> set[str]:
        """The classes `jax.tree_util.register_static` registers, as a decorator or
        a call: their objects are static wherever they are passed, at any position."""
        found = {
            cls.qualname for cls in self.classes.values()
            if any(tree_util_name(decorator.dotted, ("register_static",)) for decorator in cls.decorators)
        }
        for _, _, call in self.calls.where(lambda name: tree_util_name(name, ("register_static",)) is not None):
            cls = self.lookup_class(call.args[0].ref) if call.args and call.args[0].kind == f.NAME else None
            if cls is not None:
                found.add(cls)
        return found

    def all_subclasses(self, qualname: str) -> set[str]:
        """The project classes that inherit from the class, at any depth."""
        found, pending = set(), [qualname]
        while pending:
            for sub in self.subclasses.get(pending.pop(), ()):
                if sub not in found:
                    found.add(sub)
                    pending.append(sub)
        return found

    def inherits(self, qualname: str, names: frozenset[str]) -> bool:
        """Whether one of the class's library bases, all the way up, is one of these."""
        return bool(self.all_bases(qualname) & names)

    def library_method(self, qualname: str, name: str) -> bool:
        """Whether `name` is a method a library base gives the class (`apply` of a linen module)."""
        return any(name in LIBRARY_BASE_METHODS.get(base, ()) for base in self.all_bases(qualname))

    def is_abstract(self, qualname: str) -> bool:
        """A Protocol, an ABC, or a class with abstract methods: never the class of a value."""
        if set(self.bases(qualname)) & ABSTRACT_BASES:
            return True
        return any(
            decorator.dotted in ABSTRACT_DECORATORS
            for method in self.classes[qualname].methods
            for decorator in self.functions[method].decorators
        )

    def annotated_classes(self, parameter: f.Parameter) -> list[str]:
        """The class an annotation says a parameter holds, when it says so plainly:
        one concrete project class (or Optional of one) without project subclasses.
        A union, a Protocol, an abstract or a base class says little of what is passed."""
        if len(parameter.annotation) != 1:
            return []
        qualname = self.lookup_class(parameter.annotation[0])
        if qualname is None or self.subclasses.get(qualname) or self.is_abstract(qualname):
            return []
        return [qualname]

    # --- values -------------------------------------------------------------------------------

    def instance_classes(self, ref: Ref) -> tuple[str, ...]:
        """The project classes whose instances the name `ref` may hold: by a
        parameter's annotation, `self`, or the constructor calls it is bound to."""
        known = self._instance_classes.get(ref)
        if known is None:
            self._instance_classes[ref] = ()  # `model, static = eqx.partition(model, ...)` names itself
            known = self._instance_classes[ref] = self._instance_classes_of(ref)
        return known

    def _instance_classes_of(self, ref: Ref) -> tuple[str, ...]:
        found: list[str] = []
        if ref.is_local and not ref.attributes:
            function = self.functions.get(ref.function)
            if function is not None:
                for position, parameter in enumerate(function.parameters):
                    if parameter.name != ref.name:
                        continue
                    found.extend(self.annotated_classes(parameter))
                    if position == 0 and function.is_instance_method:
                        found.append(function.class_qualname)
        ref = self.canonical(ref)
        for binding in self.bindings.get(ref, ()):
            cls = self.constructed_class(binding.value)
            if cls is not None:
                found.append(cls)
            elif binding.value.kind == f.CALL:
                found.extend(self.returned_classes(self.lookup_function(binding.value.ref)))
            elif self.is_partition_half(binding.value):
                # Each half of `eqx.partition(model, ...)` is a `model` with some leaves replaced by None.
                whole = binding.value.args[0].args[:1]
                found.extend(cls for value in whole for cls in self.value_classes(value))
        return tuple(dict.fromkeys(found))

    def is_partition_half(self, value: f.Value) -> bool:
        """A half of `eqx.partition(obj, eqx.is_array)`, or a name bound only to
        one: an `obj` whose arrays (or, in the other half, all but its arrays)
        are None. Another filter leaves some arrays in either half: not known."""
        if value.kind == f.NAME and value.ref is not None:
            bindings = self.bindings.get(value.ref, ())
            return bool(bindings) and all(_partition_item(binding.value) for binding in bindings)
        return _partition_item(value)

    def may_hold_instances(self, ref: Ref) -> bool:
        """Whether `instance_classes` can find a class for the name, told
        without resolving it: a parameter of its function, or a name bound
        somewhere. It covers each source `_instance_classes_of` reads, for
        questions asked of every callee of the project."""
        if ref.is_local and not ref.attributes:
            function = self.functions.get(ref.function)
            if function is not None and any(parameter.name == ref.name for parameter in function.parameters):
                return True
        return self.canonical(ref) in self.bindings

    def returned_classes(self, function: f.FunctionFacts | None) -> list[str]:
        """The classes a factory function returns objects of, when every `return`
        builds one (`return SGD(lr)`) or returns a local bound only to such."""
        found: list[str] = []
        for value in function.returns if function is not None else ():
            built = self.constructed_class(value)
            if built is None and value.kind == f.NAME and value.ref is not None and value.ref.is_local:
                bindings = self.bindings.get(value.ref, ())
                built_there = [self.constructed_class(binding.value) for binding in bindings]
                built = built_there[0] if bindings and len(set(built_there)) == 1 else None
            if built is None:
                return []
            found.append(built)
        return found

    def value_classes(self, value: f.Value) -> tuple[str, ...]:
        """The project classes `value` may be an instance of: built right there
        (`Config(...)`), or a name that holds one (see `instance_classes`)."""
        built = self.constructed_class(value)
        if built is not None:
            return (built,)
        return self.instance_classes(value.ref) if value.kind == f.NAME and value.ref is not None else ()

    def bound_methods(self, value: f.Value) -> list[tuple[str, f.FunctionFacts]]:
        """`obj.method` read without a call, as (class, method), one pair per
        project class `obj` may hold: a bound method, which hashes and
        compares by its object's identity. A property is its value, not one."""
        if value.kind != f.NAME or value.ref is None or value.ref.parent is None:
            return []
        found = []
        owner = value.ref.parent
        for cls in self.instance_classes(owner) or self._named_family(owner, value.ref.last):
            method = self.find_method(cls, value.ref.last)
            if method is not None and method.is_instance_method and not method.is_property:
                found.append((cls, method))
        return found

    def stored_bound_methods(self, value: f.Value) -> list[tuple[str, f.FunctionFacts]]:
        """`self.cost_fn`, where every `self.cost_fn = ...` of the class (or a
        project base) stores a bound method (`self.cost_fn = model.training_cost`):
        those methods, as `bound_methods` gives them."""
        ref = value.ref if value.kind == f.NAME else None
        function = self.functions.get(ref.function) if ref is not None and ref.is_local else None
        if function is None or len(ref.attributes) != 1 or not function.is_instance_method or ref.name != function.self_name:
            return []
        found = []
        for write in self.self_writes(function.class_qualname, ref.attributes[0]):
            methods = self.bound_methods(write.value) if write.value is not None else []
            if not methods:
                return []
            found.extend(methods)
        return found

    def self_writes(self, class_qualname: str, attribute: str) -> list[f.AttributeWrite]:
        """The `self.<attribute> = ...` of the methods of the class and its project bases."""
        lineage = set(self.mro(class_qualname))
        return [
            write for write, _ in self.writes_of(attribute)
            if write.target.is_local and not write.target.attributes
            and (writer := self.functions.get(write.target.function)) is not None
            and writer.is_instance_method and write.target.name == writer.self_name and writer.class_qualname in lineage
        ]

    @cached_property
    def _item_written(self) -> set[Ref]:
        """The globals some `name[key] = ...` changes in place."""
        return {self.canonical(write.target) for write, _ in self.item_writes if not write.target.is_local}

    @cached_property
    def _definers(self) -> dict[str, list[str]]:
        """A method's name -> the project classes whose own body defines it."""
        found: dict[str, list[str]] = defaultdict(list)
        for cls in self.classes.values():
            for method in cls.methods:
                found[method.rpartition(".")[2]].append(cls.qualname)
        return found

    def classes_defining(self, name: str) -> list[str]:
        """The project classes whose own body defines a method `name`."""
        return self._definers.get(name, [])

    def handed_in_classes(self, ref: Ref) -> tuple[str, ...]:
        """The project class an untyped parameter holds, told by its name and
        the methods its function calls on it (`model.lr(t)` in `def decay(model, t)`),
        as `_named_family` tells it."""
        function = self.functions.get(ref.function) if ref.is_local and not ref.attributes else None
        use = function.parameter_use(ref.name) if function is not None else None
        if use is None:
            return ()
        return tuple(sorted({cls for chain in use.reads for cls in self._named_family(ref, chain[0])}))

    def _named_family(self, owner: Ref, name: str) -> tuple[str, ...]:
        """The class an untyped parameter or `self.<attribute>` holds, told by
        its name and the method read off it: `model.training_cost` or
        `self._model.evaluate_batch`, where `training_cost` is defined only in
        `BaseModel` and its subclasses (or, of several such families, the one
        the holder's own module defines). Untyped code names an injected
        object after its kind; both must agree, so a library's object whose
        method shares a project method's name is not taken for a project
        class."""
        function = self.functions.get(owner.function) if owner.is_local else None
        if function is None:
            return ()
        if owner.attributes:
            if len(owner.attributes) != 1 or not function.is_instance_method or owner.name != function.self_name:
                return ()
            holder = owner.attributes[0]
            # Only an object handed in: every `self.<holder> = ...` of the class stores an untyped parameter.
            writes = self.self_writes(function.class_qualname, holder)
            if not writes or not all(
                write.value is not None and write.value.kind == f.NAME and self._untyped_parameter(write.value.ref) for write in writes
            ):
                return ()
        else:
            if not self._untyped_parameter(owner):
                return ()
            holder = owner.name
        defining = self._definers.get(name, ())
        roots = {cls for cls in defining if not any(base in defining for base in self.mro(cls)[1:])}
        if len(roots) > 1:  # the family the holder's own module defines, if one
            roots = {cls for cls in roots if self.path_of[cls] == self.path_of[function.qualname]}
        if len(roots) != 1 or name.startswith("__") or name in _LIBRARY_METHODS:
            return ()
        (root,) = roots
        kind = _snake(root.rpartition(".")[2])
        word = holder.strip("_").rpartition("_")[2].lower()
        return (root,) if word and (kind == word or kind.endswith("_" + word)) else ()

    def constructed_class(self, value: f.Value) -> str | None:
        """The project class a call constructs, when `value` is such a call
        (`Config(...)`, or `cls(...)` in a classmethod of the class)."""
        if value.kind != f.CALL or value.ref is None:
            return None
        ref = value.ref
        if ref.is_local and not ref.attributes:
            function = self.functions.get(ref.function)
            if function is not None and function.class_qualname and function.parameters:
                if function.parameters[0].name == ref.name and any(
                    decorator.dotted == "builtins.classmethod" for decorator in function.decorators
                ):
                    return function.class_qualname
            return None
        return self.lookup_class(ref)

    def unhashable_kind(self, value: f.Value, follow_names: bool = True, returns: int = 1) -> str:
        """"list", "dict", "set", "bytearray", "array", "namespace" (an
        `argparse` or `types` namespace), "ConfigDict" or "DictConfig" (an
        OmegaConf config) when `value` is surely one (or is on the path a
        fallback takes, `items or []`); else "". A call of a project function
        is what every `return` of it gives (`config = get_config()`), `returns`
        functions deep."""
        if value.kind == f.OTHER and value.literal == f.FALLBACK:
            return next((kind for arg in value.args if (kind := self.unhashable_kind(arg, follow_names, returns))), "")
        if value.kind in _DISPLAYS:
            return _DISPLAYS[value.kind]
        if value.kind == f.OTHER and value.literal == f.ITEM and follow_names and len(value.args) == 2:
            # `PRESETS["small"]`: the item a dict display bound once to the name holds.
            container, key = value.args
            ref = self.canonical(container.ref) if container.kind == f.NAME and container.ref is not None else None
            if ref is None or ref.is_local or ref.attributes or ref in self._item_written:
                return ""  # a module's registry, never changed item by item
            bindings = self.bindings.get(ref, ())
            shown = bindings[0].value if len(bindings) == 1 else container
            item = shown.keyword(key.literal) if shown.kind == f.DICT else None
            return self.unhashable_kind(item, False, returns) if item is not None else ""
        if value.kind == f.OTHER and value.literal == f.ARITHMETIC:
            # Arithmetic with an array gives one: `scale * jax.random.normal(key, shape)`.
            kinds = {self.unhashable_kind(arg, follow_names, returns) for arg in value.args}
            return "array" if "array" in kinds else ""
        if value.kind == f.CALL:
            if value.dotted in UNHASHABLE_BUILTINS:
                return value.dotted.rpartition(".")[2]
            if value.dotted in LIBRARY_UNHASHABLE:
                return LIBRARY_UNHASHABLE[value.dotted]
            built, _, method = value.dotted.rpartition("().")  # `argparse.ArgumentParser(...).parse_args()`
            if built and (built, method) in LIBRARY_UNHASHABLE_RESULTS:
                return LIBRARY_UNHASHABLE_RESULTS[built, method]
            if is_array_constructor(value.dotted):
                return "array"
            function = self.lookup_function(value.ref) if returns else None
            if function is not None and function.returns and not function.decorators:  # a decorator may convert
                kinds = {self.unhashable_kind(returned, True, returns - 1) for returned in function.returns}
                return kinds.pop() if len(kinds) == 1 else ""
            return self._library_result(value.ref) if value.ref is not None and value.ref.parent is not None else ""
        if value.kind == f.NAME and value.ref is not None and follow_names:
            bindings = self.bindings.get(self.canonical(value.ref), ())
            if self._is_parameter(value.ref) and any(binding.conditional for binding in bindings):
                return ""  # `if mask is None: mask = np.ones(n)`: it may still hold what the caller passed
            kinds = {self.unhashable_kind(binding.value, False, returns) for binding in bindings}
            if len(kinds) == 1:
                return kinds.pop()
        return ""

    def _library_result(self, method: Ref) -> str:
        """`parser.parse_args()` with `parser = argparse.ArgumentParser(...)`: what
        `LIBRARY_UNHASHABLE_RESULTS` says the method returns, by what built the
        object it is called on ("" when unknown)."""
        bindings = self.bindings.get(self.canonical(method.parent), ())
        built = {binding.value.dotted for binding in bindings if binding.value.kind == f.CALL}
        kinds = {LIBRARY_UNHASHABLE_RESULTS.get((dotted, method.last), "") for dotted in built}
        return kinds.pop() if len(kinds) == 1 else ""

    def _untyped_parameter(self, ref: Ref | None) -> bool:
        """A parameter without an annotation, not the `self` of a method."""
        function = self.functions.get(ref.function) if ref is not None and ref.is_local and not ref.attributes else None
        if function is None:
            return False
        for position, parameter in enumerate(function.parameters):
            if parameter.name == ref.name:
                return not parameter.annotation and not (position == 0 and function.is_instance_method)
        return False

    def _is_parameter(self, ref: Ref) -> bool:
        function = self.functions.get(ref.function) if ref.is_local and not ref.attributes else None
        return function is not None and any(parameter.name == ref.name for parameter in function.parameters)


def _partition_item(value: f.Value) -> bool:
    """`eqx.partition(obj, eqx.is_array)[i]`, as a tuple-unpacking assignment gives it."""
    if value.kind != f.OTHER or value.literal != f.ITEM or not value.args:
        return False
    call = value.args[0]
    return call.dotted in PARTITIONS and len(call.args) > 1 and call.args[1].dotted in ARRAY_FILTERS


# Methods the objects of JAX libraries offer (optax, flax, haiku, gym, equinox): an untyped holder of one of
# these may be a library's object, whatever the project also defines.
_LIBRARY_METHODS = frozenset(
    {"init", "update", "apply", "step", "reset", "sample", "forward", "predict", "run", "call", "bind", "render"}
)


def _snake(name: str) -> str:
    """`BaseModel` -> `base_model`."""
    return "".join(f"_{char.lower()}" if char.isupper() and index else char.lower() for index, char in enumerate(name))


def _linearize(head: str, bases: list[list[str]]) -> list[str]:
    """C3 linearization of `head` over its bases' MROs; depth-first where C3 has no answer."""
    pending = [list(mro) for mro in bases if mro] + [[mro[0] for mro in bases if mro]]
    result = [head]
    while any(pending):
        for candidate in (sequence[0] for sequence in pending if sequence):
            if not any(candidate in sequence[1:] for sequence in pending):
                break
        else:
            return list(dict.fromkeys([head, *(cls for mro in bases for cls in mro)]))
        result.append(candidate)
        pending = [sequence[1:] if sequence and sequence[0] == candidate else sequence for sequence in pending]
    return result
