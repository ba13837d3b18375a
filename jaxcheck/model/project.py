"""What the rules read: the index and what is derived from it, each computed once."""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property

from jaxcheck import facts as f
from jaxcheck.facts import CALL, NAME, FunctionFacts
from jaxcheck.model.values import attribute_holds, aux_holds
from jaxcheck.model.symbols import Index
from jaxcheck.model.functions import Made, made_functions
from jaxcheck.model.pytrees import aux_elements, static_fields
from jaxcheck.model.classes import StaticSafety
from jaxcheck.model.static_uses import StaticUse, find_static_uses, held_use
from jaxcheck.model.transforms import Options


# They call the function they are given once per leaf, on every call.
_MAPS = frozenset(
    {
        "jax.tree_util.tree_map",
        "jax.tree_util.tree_map_with_path",
        "jax.tree.map",
        "jax.tree.map_with_path",
        "jax.tree_map",
    }
)


class Analysis:
    """The index plus the static uses and class judgements the rules share."""

    def __init__(self, index: Index, options: Options = Options()) -> None:
        self.index = index
        self.options = options
        self._mutations: dict[str, list] = {}
        self._made: dict[str, list[Made]] = {}
        self._constructions: dict[str, list] | None = None

    @cached_property
    def static_uses(self) -> tuple[StaticUse, ...]:
        return find_static_uses(self.index, self.options.table)

    @cached_property
    def static_uses_by_class(self) -> dict[str, list[StaticUse]]:
        """The static uses of each class, with the classes held in the fields of
        static classes (their objects are static too), recursively."""
        grouped: dict[str, list[StaticUse]] = defaultdict(list)
        for use in sorted(self.static_uses, key=lambda use: (use.path, use.location)):
            if use.class_qualname:
                grouped[use.class_qualname].append(use)
        pending = list(grouped)
        while pending:
            outer = pending.pop()
            if self.safety.traits(outer) is None:
                continue
            dataclass_like = self.safety.is_dataclass_like(outer)
            for field in self.safety.fields(outer):
                if dataclass_like and not field.declared:
                    continue  # set in `__post_init__`, outside the compared fields: derived, not the key
                for inner in self.held_classes(field):
                    if inner not in grouped:
                        pending.append(inner)
                    if not any(use.outer is not None and use.location == field.location for use in grouped[inner]):
                        grouped[inner].append(held_use(grouped[outer][0], outer, field, inner))
        return grouped

    def held_classes(self, field) -> list[str]:
        """The project class a field holds, by its one-class annotation or the object built into it."""
        found = []
        if field.declared and not field.compared:
            return found  # `field(compare=False)`: not part of the static key
        if field.value is not None and field.value.kind == CALL:
            built = self.index.lookup_class(field.value.ref)
            if built is not None:
                found.append(built)
        if len(field.annotation) == 1:
            # An annotation says what is held for a concrete class; a stateless
            # interface base with subclasses says little (the value built tells).
            named = self.index.lookup_class(field.annotation[0])
            if named is not None and named not in found and not self.index.is_abstract(named):
                traits = self.safety.traits(named) if self.index.subclasses.get(named) else None
                if not self.index.subclasses.get(named) or (traits is not None and traits.has_state):
                    found.append(named)
        # A stateless object (`act: Relu = Relu()`) gives nothing to go stale.
        return [qualname for qualname in found if self._stateful(qualname)]

    def _stateful(self, qualname: str) -> bool:
        traits = self.safety.traits(qualname)
        return traits is None or traits.has_state

    def mutations(self, qualname: str):
        """`StaticSafety.mutation_sites`, computed once per class."""
        known = self._mutations.get(qualname)
        if known is None:
            known = self._mutations[qualname] = self.safety.mutation_sites(qualname)
        return known

    @cached_property
    def safety(self) -> StaticSafety:
        return StaticSafety(self.index, self.options.static_bases, self.options.singletons)

    def made(self, path: str) -> list[Made]:
        """The functions compiling transforms make in the module at `path`."""
        known = self._made.get(path)
        if known is None:
            known = self._made[path] = made_functions(self.index.modules[path], self.index, self.options.table)
        return known

    def bound_methods(self, made: Made) -> list[tuple[str, FunctionFacts]]:
        """(class, method) for a transform given `obj.method`, one pair per class `obj` may hold."""
        target = made.application.target
        if made.nested is not None or target is None or target.kind != NAME:
            return []
        owner, _, name = target.ref.rpartition(".")
        if not owner:
            return []
        found = []
        for cls in self.index.instance_classes(owner):
            method = self.index.find_method(cls, name)
            if method is not None and method.is_instance_method:
                found.append((cls, method))
        return found

    @cached_property
    def called_repeatedly(self) -> set[str]:
        """The functions the project calls on every turn of a loop: directly, or
        through the functions such a loop calls (up to three calls deeper)."""
        calls: dict[str, list[str]] = defaultdict(list)  # caller -> refs it calls
        repeated: set[str] = set()
        for module in self.index.modules.values():
            for _, ref in module.loop_calls:
                repeated.update(self.callees(ref))
            for caller, call in module.calls:
                if call.ref in _MAPS and call.args and call.args[0].kind == NAME:
                    repeated.update(self.callees(call.args[0].ref))  # called once per leaf
                if caller and call.ref:
                    calls[caller].append(call.ref)
        frontier = set(repeated)
        for _ in range(3):
            frontier = {callee for caller in frontier for ref in calls.get(caller, ()) for callee in self.callees(ref)}
            frontier -= repeated
            repeated |= frontier
        return repeated

    def callees(self, ref: str) -> list[str]:
        """The project functions a call of `ref` may run: a function, a class's
        `__init__`, a method of an object whose class is known, or the
        `__call__` of such an object."""
        canonical = self.index.canonical(ref)
        if canonical in self.index.functions:
            return [canonical]
        if canonical in self.index.classes:
            found = [(canonical, "__init__")]
        else:
            found = [(cls, "__call__") for cls in self.index.instance_classes(ref)]
            owner, _, name = ref.rpartition(".")
            if owner.endswith("()") and self.index.canonical(owner[:-2]) in self.index.classes:
                found.append((self.index.canonical(owner[:-2]), name))  # `Model(2.0).warm(x)`
            elif owner and ":" not in name:
                found += [(cls, name) for cls in self.index.instance_classes(owner)]
        methods = (self.index.find_method(cls, name) for cls, name in found)
        return [method.qualname for method in methods if method is not None]

    def closed_over(self, made: Made) -> dict[str, set[str]]:
        """For a lambda or nested function given to a transform: class -> the
        attributes it reads of the `self` of the method it is made in."""
        found: dict[str, set[str]] = defaultdict(set)
        for read in made.reads:
            owner, _, rest = read.partition(":")
            parameter, _, attribute = rest.partition(".")
            function = self.index.functions.get(owner)
            if function is not None and function.is_instance_method and function.parameters[0].name == parameter:
                found[function.class_qualname].add(attribute.partition(".")[0])
        return found

    def constructions(self, cls: str) -> list[tuple[str, f.Value]]:
        """The analysed calls that build `cls`, as (path, call)."""
        if self._constructions is None:
            self._constructions = defaultdict(list)
            for path, module in self.index.modules.items():
                for _, call in module.calls:
                    if call.ref and self.index.canonical(call.ref) in self.index.classes:
                        self._constructions[self.index.canonical(call.ref)].append((path, call))
        return self._constructions.get(cls, [])

    @cached_property
    def pytree_hazards(self) -> tuple[list, list]:
        """(aux_data elements, static fields), each with what it holds that a tree's structure must not."""
        aux = []
        for element in aux_elements(self.index):
            held = aux_holds(element.value, self, element.cls, element.subject)
            if held is not None:
                aux.append((element, held))
        static = []
        for field in static_fields(self.index):
            held = attribute_holds(field.cls, field.name, self)
            if held is not None:
                static.append((field, held))
        return aux, static

    def judge_everything(self) -> None:
        """Ask every question the rules will ask, so that `index.missing` is complete."""
        for qualname in self.static_uses_by_class:
            self.safety.traits(qualname)
        for path in self.index.modules:
            for made in self.made(path):
                for cls, _ in self.bound_methods(made):
                    self.safety.traits(cls)
                for cls in self.closed_over(made):
                    self.safety.traits(cls)
        self.pytree_hazards

    def classes_in(self, path: str):
        """The classes defined in `path` that reach a static position, with their uses."""
        module = self.index.modules[path]
        for cls in module.classes:
            uses = self.static_uses_by_class.get(cls.qualname)
            if uses:
                yield cls, uses
