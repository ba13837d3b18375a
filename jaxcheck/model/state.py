"""What traced code reads of an object, and what changes that state once the object is built.

A function traced once bakes in every attribute it read; it goes stale when
one of them is later assigned or changed in place. Reads are attribute chains
(`self.solver.dt` reads ("solver", "dt")), followed through the `self.helper()`
methods and properties of the object's class. Changes are the writes, in-place
item writes and mutating calls (`.append`, `.update`, ...) on an instance
outside its construction, each with where it is, in which function, and on
which object.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from jaxcheck import facts as f
from jaxcheck.facts import Ref
from jaxcheck.model.classes import Classes
from jaxcheck.model.jax_api import ATTRIBUTE_HOOKS, MUTATORS, NOT_READING
from jaxcheck.model.symbols import Symbols
from jaxcheck.findings import place_named

Chain = tuple[str, ...]


@dataclass(frozen=True)
class Reads:
    """What code reads of one object."""

    chains: frozenset[Chain] = frozenset()  # ("scale",), ("solver", "dt"); a method's name when it is called
    opaque: bool = False  # also used in ways not followed: stored, returned, passed on

    @property
    def attributes(self) -> frozenset[str]:
        return frozenset(chain[0] for chain in self.chains)

    def __or__(self, other: Reads) -> Reads:
        return Reads(self.chains | other.chains, self.opaque or other.opaque)

    def include(self, path: Chain) -> bool:
        """Whether a change at `path` changes something read: one chain is the start of the other."""
        return self.opaque or any(chain[: len(path)] == path or path[: len(chain)] == chain for chain in self.chains)


@dataclass(frozen=True)
class Change:
    """State of an object changed after it was built."""

    path: Chain  # the attribute chain changed: ("scale",), ("solver", "dt"); ("items",) changed in place
    in_place: bool  # the value at `path` was changed in place (an item write, `.append`), not reassigned
    file: str
    location: f.Location
    function: str  # the qualname of the function it is in; "" at module level
    inside: bool  # in a method of the object's class: part of its API (a setter)
    target: Ref  # the object, as the code there names it (`self`, `cfg`)
    text: str  # how a message shows it: "cfg.scale = ...", "self.items.append(...)"
    method: str = ""  # the mutating method called (`append`), for a change made by a call
    invited: bool = False  # made by a library's users, on a public field it offers (`location` declares it)

    @property
    def shown(self) -> str:
        """How a message names it: "`cfg.scale = ...` at a.py:12"."""
        if self.invited:
            return f"a user's `{self.text}` (a public field of a mutable dataclass, {place_named(self.file, self.location.line, self.location.column)})"
        return f"`{self.text}` at {place_named(self.file, self.location.line, self.location.column)}"


def uses_opaquely(use: f.ParameterUse) -> bool:
    """The value is used in ways not followed: stored, returned, or passed to
    something that may read any of it."""
    return use.opaque or any(ref is None or ref.dotted not in NOT_READING for ref in use.passed_to)


class State:
    """Reads and changes of the project's objects, each class's computed once."""

    def __init__(self, symbols: Symbols, classes: Classes) -> None:
        self.symbols = symbols
        self.classes = classes
        self._changes: dict[str, list[Change]] | None = None

    # --- reads ---------------------------------------------------------------------------------

    def parameter_reads(self, function: f.FunctionFacts, parameter: str, cls: str | None = None) -> Reads:
        """What `function` reads of its `parameter`; with `cls`, the class of the
        value, through the methods and properties it calls on it."""
        use = function.parameter_use(parameter)
        if use is None:
            return Reads()
        reads = Reads(frozenset(use.reads), uses_opaquely(use))
        return self.object_reads(cls, reads) if cls else reads

    def object_reads(self, cls: str, reads: Reads) -> Reads:
        """`reads` of an instance of `cls`, with what the methods and properties it names read of it."""
        chains, opaque = set(reads.chains), reads.opaque
        pending, seen = [chain[0] for chain in reads.chains], set()
        while pending:
            name = pending.pop()
            helper = self.symbols.find_method(cls, name)
            if name in seen or helper is None or not helper.is_instance_method:
                continue
            seen.add(name)
            use = helper.parameter_use(helper.self_name)
            if use is not None:
                chains.update(use.reads)
                opaque = opaque or uses_opaquely(use)
                pending.extend(chain[0] for chain in use.reads)
        return Reads(frozenset(chains), opaque)

    def method_reads(self, cls: str, method: f.FunctionFacts) -> Reads:
        """What an instance method reads of its object, through its helpers."""
        if not method.is_instance_method:
            return Reads()
        return self.parameter_reads(method, method.self_name, cls)

    # --- changes -------------------------------------------------------------------------------

    def changes(self, cls: str) -> list[Change]:
        """The changes to instances of `cls` after construction: in its methods
        (its own or its bases'), and on its instances anywhere in the project."""
        if self._changes is None:
            self._changes = self._outside_changes()
        construction = self.classes.construction_methods(cls)
        found = []
        for method in self.symbols.methods(cls):
            if method.is_instance_method and method.name not in construction and method.name not in ATTRIBUTE_HOOKS:
                found.extend(self._method_changes(method))
        methods = {method.qualname for method in self.symbols.methods(cls)}
        found.extend(change for change in self._changes.get(cls, ()) if change.function not in methods)
        return sorted(found, key=lambda change: (change.file, change.location))

    def _method_changes(self, method: f.FunctionFacts) -> list[Change]:
        this = Ref(method.self_name, method.qualname)
        path = self.symbols.path_of[method.qualname]
        found = []
        for write, write_path in self.symbols.writes.get(this, ()):
            found.append(_change(write_path, write.location, write.function, this, (write.attribute,), True, " = ..."))
        module = self.symbols.modules[path]
        for write in module.item_writes:
            if write.target.base == this and write.target.attributes:
                found.append(_change(path, write.location, write.function, this, write.target.attributes, True, "[...] = ..."))
        for function, call in module.calls:
            ref = call.ref
            if function == method.qualname and ref is not None and ref.base == this and _mutates(ref):
                found.append(_change(path, call.location, function, this, ref.attributes[:-1], True, f".{ref.last}(...)"))
        return found

    def _outside_changes(self) -> dict[str, list[Change]]:
        """Every change made on an object from outside its methods, by the class the object may be."""
        by_class: dict[str, list[Change]] = defaultdict(list)
        for target, writes in self.symbols.writes.items():
            base, chain = self._split(target)
            for cls in self._classes_of(base):
                for write, path in writes:
                    change = _change(path, write.location, write.function, base, (*chain, write.attribute), False, " = ...")
                    by_class[cls].append(change)
        for write, path in self.symbols.item_writes:
            base, chain = self._split(write.target)
            if base is not None and chain:
                for cls in self._classes_of(base):
                    by_class[cls].append(_change(path, write.location, write.function, base, chain, False, "[...] = ..."))
        for path, function, call in self.symbols.calls.where(last=MUTATORS):
            base, chain = self._split(call.ref)  # `order.reverse()` after `order = env.agents`
            if base is not None and len(chain) > 1:
                for cls in self._classes_of(base):
                    change = _change(path, call.location, function, base, chain[:-1], False, f".{chain[-1]}(...)")
                    by_class[cls].append(change)
        return by_class

    def _classes_of(self, base: Ref | None) -> tuple[str, ...]:
        """The project classes a changed object may be: known from the code, or
        an untyped parameter named after the class whose methods are called on it."""
        if base is None:
            return ()
        return self.symbols.instance_classes(base) or self.symbols.handed_in_classes(base)

    def _split(self, ref: Ref, depth: int = 3) -> tuple[Ref | None, Chain]:
        """The named object and the attributes after it: (`cfg`, ("scale",)) for
        `cfg.scale`, a global split where a binding of the project starts. A
        name bound once, to another name or an attribute of another object, is
        that (`agents = env.agents; agents.reverse()` changes `env.agents`)."""
        if ref.is_local:
            base, chain = ref.base, ref.attributes
        else:
            base, chain = None, ()
            parts = self.symbols.canonical(ref).name.split(".")
            for end in range(len(parts), 0, -1):
                candidate = Ref(".".join(parts[:end]))
                if candidate in self.symbols.bindings:
                    base, chain = candidate, tuple(parts[end:])
                    break
            if base is None:
                return None, ()
        bindings = self.symbols.bindings.get(base, ())
        if depth and len(bindings) == 1 and bindings[0].value.kind == f.NAME and bindings[0].value.ref is not None:
            target = bindings[0].value.ref
            if target != base:
                inner, inner_chain = self._split(target, depth - 1)
                if inner is not None:
                    return inner, inner_chain + chain
        return base, chain


def _mutates(ref: Ref) -> bool:
    """A call of a mutating method on something read off an object: `x.items.append`."""
    return ref.last in MUTATORS and len(ref.attributes if ref.is_local else ref.name.split(".")) >= 2


def _change(file: str, location: f.Location, function: str, base: Ref, chain: Chain, inside: bool, how: str) -> Change:
    """A change at `chain` of the object `base`; `how` ends its text: " = ...", ".append(...)"."""
    name = base.name if base.is_local else base.name.rpartition(".")[2]
    in_place = not how.startswith(" = ")
    method = how[1:].partition("(")[0] if how.startswith(".") else ""
    return Change(chain, in_place, file, location, function, inside, base, ".".join((name, *chain)) + how, method)
