"""The model of one project: what JAX does with each of its values, as the rules ask it.

One object the rules read: the names (`symbols`), the classes and how they
hash and mutate (`classes`), what code reads and changes of objects
(`state`), what values hold (`values`), the functions transforms make
(`functions`), what jitted code bakes in of globals and closures
(`constants`), where values become static (`static_uses`) and what pytrees
keep in their structure (`pytree_hazards`), each computed once, on demand.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property
from typing import Iterable

from jaxcheck import facts as f
from jaxcheck.model.classes import VALUE, Classes
from jaxcheck.model.constants import Constants
from jaxcheck.model.functions import Functions
from jaxcheck.model.pytrees import aux_elements, static_fields
from jaxcheck.model.state import State
from jaxcheck.model.static_uses import FIELD, Sites, StaticUse, find_sites, find_static_uses, held_use
from jaxcheck.model.symbols import Symbols
from jaxcheck.model.transforms import Options
from jaxcheck.model.values import Values


class Model:
    """The project's facts, and what JAX does with its values."""

    def __init__(
        self, modules: Iterable[f.ModuleFacts], options: Options = Options(), import_roots: dict[str, str] | None = None
    ) -> None:
        self.options = options
        self.symbols = Symbols(modules, import_roots)
        self.classes = Classes(self.symbols, options.static_bases, options.singletons)
        self.state = State(self.symbols, self.classes)
        self.values = Values(self.symbols, self.classes, self.state)
        self.functions = Functions(self.symbols, options.table)
        self.constants = Constants(self.symbols, self.functions)

    @property
    def target(self):
        """The JAX releases the project runs on (`target-jax-version`)."""
        return self.options.target

    @cached_property
    def sites(self) -> Sites:
        """The transforms applied to project functions, and the calls that run them."""
        return find_sites(self.symbols, self.functions.compiled)

    @cached_property
    def static_uses(self) -> tuple[StaticUse, ...]:
        return find_static_uses(self.symbols, self.state, self.sites, self.values.static_leaves)

    @cached_property
    def static_uses_by_class(self) -> dict[str, list[StaticUse]]:
        """The static uses of each class, with the classes held in the fields of
        static objects (their objects are static too), recursively."""
        grouped: dict[str, list[StaticUse]] = defaultdict(list)
        for use in sorted(self.static_uses, key=lambda use: (use.path, use.location)):
            if use.class_qualname:
                grouped[use.class_qualname].append(use)
        pending = list(grouped)
        while pending:
            outer = pending.pop()
            if self.classes.traits(outer) is None:
                continue
            dataclass_like = self.classes.is_dataclass_like(outer)
            for field in self.classes.fields(outer):
                if dataclass_like and not field.declared:
                    continue  # set in `__post_init__`, outside the compared fields: derived, not the key
                for inner in self.values.held_classes(field):
                    if inner not in grouped:
                        pending.append(inner)
                    if not any(use.outer is not None and use.location == field.location for use in grouped[inner]):
                        grouped[inner].append(held_use(grouped[outer][0], outer, field, inner))
        return grouped

    def hash_consulted(self, use: StaticUse) -> bool:
        """Whether JAX ever hashes or compares the static object itself: at the
        top, unless what is static is a bound method of it (which hashes by the
        object's identity); for an object held in a field, only when every
        object holding it is compared by value (an identity-hashed owner is its
        own key)."""
        while use.via == FIELD:
            traits = self.classes.traits(use.holder)
            if traits is None or traits.hashing != VALUE:
                return False
            use = use.outer
        return not use.method

    @cached_property
    def pytree_hazards(self) -> tuple[list, list]:
        """(aux_data elements, static fields), each with what it holds that a tree's structure must not."""
        aux = []
        for element in aux_elements(self.symbols):
            held = self.values.aux_holds(element.value, element.cls, element.subject)
            if held is not None:
                aux.append((element, held))
        static = []
        for field in static_fields(self.symbols):
            held = self.values.attribute_holds(field.cls, field.name)
            if held is not None:
                static.append((field, held))
        return aux, static

    def classes_in(self, path: str):
        """The classes defined in `path` that reach a static position, with their uses."""
        module = self.symbols.modules[path]
        for cls in module.classes:
            uses = self.static_uses_by_class.get(cls.qualname)
            if uses:
                yield cls, uses
