"""JAX103-JAX105: what a static class holds must be static too (SPEC 3).

A static value is found again by `hash` and `==`, so its hash and equality
must see every field the compiled function reads (and the type, when there are
subclasses), and every field must itself be static: no array, no mutable or
identity-hashed object, and no callable created per instance.
"""

from __future__ import annotations

from jaxcheck import facts as f
from jaxcheck.model.project import Analysis
from jaxcheck.rules.base import ClassRule, about_uses, uses_text
from jaxcheck.model.values import field_holds, per_instance_callable
from jaxcheck.model.classes import VALUE, Field
from jaxcheck.model.static_uses import CALL_SITE, FIELD, reads_of




def _read_by_uses(uses, class_qualname: str, analysis: Analysis) -> tuple[set[str], bool]:
    """What the compiled functions read on the static value, through its methods."""
    read, opaque = set(), False
    for use in uses:
        read.update(use.reads)
        opaque = opaque or use.reads_opaque
    pending = list(read)
    while pending:
        method = analysis.index.find_method(class_qualname, pending.pop())
        if method is None or not method.is_instance_method:
            continue
        attributes, helper_opaque = reads_of(analysis.index, method, method.parameters[0].name, class_qualname)
        opaque = opaque or helper_opaque
        pending.extend(attribute for attribute in attributes if attribute not in read)
        read.update(attributes)
    return read, opaque


class IncompleteHash(ClassRule):
    """A hand-written `__hash__`/`__eq__` must see what the compiled function reads.

    Two static values that differ only in a left-out field hash and compare
    equal: the second call gets the function compiled for the first. JAX keys
    the type of a top-level static argument, but not of objects nested in one,
    so a hierarchy must put the type in its hash and equality.
    """

    code = "JAX103"
    name = "incomplete-hash"
    summary = "a hand-written __hash__/__eq__ of a static class leaves out a field it reads, or the type"
    facts = ("nested-type",)

    def check(self, module: f.ModuleFacts, analysis: Analysis):
        # The method at fault may be inherited from a base in this module while
        # the static class lives elsewhere: every static class is looked at.
        for qualname, uses in analysis.static_uses_by_class.items():
            traits = analysis.safety.traits(qualname)
            if traits is not None:
                yield from about_uses(self.judge(module, analysis.index.classes[qualname], traits, uses, analysis), uses)

    def judge(self, module, cls, traits, uses, analysis):
        if traits.hashing != VALUE:
            return
        read, opaque = _read_by_uses(uses, cls.qualname, analysis)
        sources: dict[str, set[str]] = {}
        for field in analysis.safety.fields(cls.qualname):
            found = _sources(field, analysis)
            if found:
                sources.setdefault(field.name, set()).update(found)
        methods = {qualname.rpartition(".")[2] for qualname in cls.methods}
        wanted = {name for name in sources if opaque or name in read} - methods
        # JAX keys the type of a top-level static argument itself: only an object
        # held inside another static value needs its type in `==`.
        nested = any(use.via == FIELD for use in uses)
        subclasses = analysis.index.subclasses.get(cls.qualname, ())
        eq = _equality_method(cls.qualname, "__eq__", analysis)
        hash_ = _equality_method(cls.qualname, "__hash__", analysis)
        # Only `==` can make two different values one cache entry: a hash that
        # leaves something out merely collides, unless `==` leaves it out too.
        eq_missing, eq_typed = _left_out(eq, cls.qualname, wanted, sources, analysis)
        hash_missing, hash_typed = _left_out(hash_, cls.qualname, wanted, sources, analysis)
        for method, missing, untyped in (
            (eq, eq_missing, nested and bool(subclasses) and not eq_typed),
            (hash_, hash_missing & eq_missing, nested and bool(subclasses) and not eq_typed and not hash_typed),
        ):
            if method is None or not (missing or untyped):
                continue
            if analysis.index.path_of[method.qualname] != module.path:
                continue
            problems = []
            if missing:
                listed = ", ".join(f"`{field}`" for field in sorted(missing))
                problems.append(f"leaves out {listed}, which the compiled function reads")
            if untyped:
                sub = subclasses[0].rpartition(".")[2]
                problems.append(f"leaves out the type, though `{sub}` subclasses `{cls.name}`")
            owner = method.qualname.rpartition(".")[0].rpartition(".")[2]
            named = f"`{owner}.{method.name}`" + (f" (which `{cls.name}` inherits)" if owner != cls.name else "")
            yield self.finding(
                module.path,
                method.location,
                f"{named} {'; it '.join(problems)}, but {uses_text(uses, analysis)}: values "
                "that differ only there compare equal and find each other's compiled function, which gives "
                "stale results. Put every such field in both `__eq__` and `__hash__`"
                + (" and the type (`type(self)`)" if untyped else "")
                + ", or let `@dataclass(frozen=True)` write them.",
            )


def _equality_method(class_qualname: str, name: str, analysis: Analysis):
    """The hand-written `__eq__`/`__hash__` a class uses, or None when a
    dataclass writes it (or none is written and object's is used)."""
    pending, seen = [class_qualname], set()
    while pending:
        qualname = pending.pop(0)
        if qualname in seen or qualname not in analysis.index.classes:
            continue
        seen.add(qualname)
        method = analysis.index.method(qualname, name)
        if method is not None:
            return method if method.is_instance_method else None
        if analysis.safety.is_dataclass_like(qualname):
            return None
        pending.extend(map(analysis.index.canonical, analysis.index.classes[qualname].bases))
    return None


def _left_out(method, class_qualname: str, wanted: set[str], sources: dict, analysis: Analysis):
    """(wanted fields whose sources a hand-written method does not read, whether it reads the type).

    A field derived from the constructor arguments another compared field
    holds (`self._key = (a, b)`, `self.n = len(dims)`) is covered by it.
    """
    if method is None:
        return set(), True
    covered, everything, typed = _coverage(method, class_qualname, analysis)
    if everything:
        return set(), True
    seen = set().union(*(sources.get(name, {name}) for name in covered))
    return {name for name in wanted if not sources[name] <= seen}, typed


def _sources(field: Field, analysis: Analysis) -> set[str]:
    """The constructor arguments a field carries; empty for one computed from
    nothing it was given (a cache, a constant)."""
    if field.declared:
        return {field.name}
    value = field.value
    if value is None:
        return set()
    return {
        candidate.ref.partition(":")[2] for candidate in (value, *value.args) if _is_parameter(candidate, analysis)
    }


def _is_parameter(value: f.Value, analysis: Analysis) -> bool:
    if value.kind != f.NAME or ":" not in value.ref:
        return False
    function, _, name = value.ref.partition(":")
    known = analysis.index.functions.get(function)
    return known is not None and any(parameter.name == name for parameter in known.parameters[1:])


def _coverage(method: f.FunctionFacts, class_qualname: str, analysis: Analysis) -> tuple[set[str], bool, bool]:
    """(fields it reads, whether it may read everything, whether it reads the type)."""
    covered, everything, typed = set(), False, False
    for position, parameter in enumerate(method.parameters[:2]):
        use = method.parameter_use(parameter.name)
        if use is None:
            continue
        attributes, opaque = reads_of(analysis.index, method, parameter.name, class_qualname if position == 0 else "")
        covered.update(attributes)
        everything = everything or (position == 0 and (opaque or "__dict__" in attributes))
        typed = typed or "__class__" in attributes or "builtins.type" in use.passed_to
    return covered, everything, typed


class DynamicChildOfStatic(ClassRule):
    """No static class may hold dynamic children (the design standard).

    An array is unhashable, so a value-hashed class holding one makes JAX raise;
    one hashed by identity silently bakes the array's values into the compiled
    function; a list or dict inside can change under the cache; a mutable or
    identity-hashed object has the faults it would have at the top (and its
    class is judged at its own definition too, naming the field).
    """

    code = "JAX104"
    name = "dynamic-child-of-static"
    summary = "a static class holds an array, or an object that is not static-safe"
    facts = ("unhashable-key", "identity-key", "changed-value-key")

    def judge(self, module, cls, traits, uses, analysis):
        reported = set()
        # A field `==` does not compare is derived from those it does (a
        # `_taps = np.linspace(...)` built in `__post_init__`): a constant of the key.
        compared = _compared_fields(cls.qualname, analysis)
        for field in sorted(analysis.safety.fields(cls.qualname), key=lambda field: (field.path, field.location)):
            if compared is not None and compared and field.name not in compared:
                continue
            held = field_holds(field, analysis)
            if held is None or field.name in reported or field.path != module.path:
                continue
            reported.add(field.name)
            yield self.finding(
                module.path,
                field.location,
                f"`{cls.name}.{field.name}` holds {held}, but {uses_text(uses, analysis)}: a static value is "
                "found again by its hash, and a static class must hold only static values (arrays are "
                "unhashable, and JAX bakes what a static object holds into the compiled code). Pass "
                f"`{field.name}` as a regular (traced) argument, or keep a hashable, immutable value there "
                "(a tuple, a frozen dataclass).",
            )


class BoundMethodField(ClassRule):
    """A callable made per instance is never equal to the next instance's.

    A bound method hashes and compares by the identity of its `__self__`, and
    a lambda, nested function or `functools.partial` is a new object each
    time: two equal configurations built apart differ in that field, so every
    new one recompiles. Module-level functions and `Class.method` are
    singletons and fine.
    """

    code = "JAX105"
    name = "bound-method-field"
    summary = "a static class stores a bound method, lambda, nested function or partial made per instance"
    facts = ("identity-key",)

    def check(self, module: f.ModuleFacts, analysis: Analysis):
        yield from super().check(module, analysis)
        yield from self._construction_sites(module, analysis)

    def judge(self, module, cls, traits, uses, analysis):
        index = analysis.index
        compared = _compared_fields(cls.qualname, analysis)
        for method in cls.methods:
            function = index.functions[method]
            if not function.is_instance_method:
                continue
            for write, path in index.writes.get(f"{method}:{function.parameters[0].name}", ()):
                if compared is not None and write.attribute not in compared:
                    continue  # not part of `==`: it cannot split the cache
                made = per_instance_callable(write.value, cls.qualname, analysis)
                if made is not None and path == module.path:
                    what = f"`{cls.name}.{write.attribute}`"
                    yield self._finding(module.path, write.location, what, made, uses, analysis)

    def _construction_sites(self, module: f.ModuleFacts, analysis: Analysis):
        """`Cfg(fn=obj.method)` where the object built reaches a static position."""
        index = analysis.index
        seen = set()
        # An argument keeps its own arguments only as a call recorded on its own.
        recorded = {call.key: call for _, call in module.calls}
        for use in analysis.static_uses:
            if use.path != module.path or use.via != CALL_SITE or use.value is None or not use.class_qualname:
                continue
            if analysis.safety.traits(use.class_qualname) is None:
                continue
            if use.enclosing == "" and use.value.kind == f.CALL or (
                use.value.kind == f.NAME and ":" not in index.canonical(use.value.ref)
            ):
                continue  # built once, when the module is imported: one trace, no harm
            built = [use.value] if use.value.kind == f.CALL else [
                binding.value for binding in index.bindings.get(index.canonical(use.value.ref), ())
            ]
            compared = _compared_fields(use.class_qualname, analysis)
            for call in built:
                call = recorded.get(call.key, call)
                if index.constructed_class(call) != use.class_qualname:
                    continue
                arguments = [*((f"argument {n}", arg) for n, arg in enumerate(call.args, 1)), *call.keywords]
                for key, argument in arguments:
                    if compared is not None and not key.startswith("argument ") and key not in compared:
                        continue
                    made = per_instance_callable(argument, "", analysis)
                    if made is None or argument.location in seen or key == "**":
                        continue
                    seen.add(argument.location)
                    name = use.class_qualname.rpartition(".")[2]
                    what = f"`{name}.{key}`" if not key.startswith("argument ") else f"`{name}(...)` ({key})"
                    yield self._finding(module.path, argument.location, what, made, [use], analysis)

    def _finding(self, path, location, what, made, uses, analysis):
        return self.finding(
            path,
            location,
            f"{what} is given {made}, made anew for each instance, but "
            f"{uses_text(uses, analysis)}: it hashes and compares by identity, so every new instance misses "
            "the cache and recompiles. Store a module-level function or `Class.method` (singletons), or call "
            "the method instead of storing it.",
        )


def _compared_fields(class_qualname: str, analysis: Analysis) -> set[str] | None:
    """The fields `==` compares; None when every field may be."""
    eq = _equality_method(class_qualname, "__eq__", analysis)
    if eq is not None:
        covered, everything, _ = _coverage(eq, class_qualname, analysis)
        return None if everything else covered
    if analysis.safety.is_dataclass_like(class_qualname) or any(
        analysis.safety.is_dataclass_like(base) for base in _bases(class_qualname, analysis)
    ):
        return {field.name for field in analysis.safety.fields(class_qualname) if field.compared}
    return set()  # compared by identity: a field changes nothing (JAX102 speaks of that)


def _bases(class_qualname: str, analysis: Analysis) -> list[str]:
    cls = analysis.index.classes[class_qualname]
    return [base for base in map(analysis.index.canonical, cls.bases) if base in analysis.index.classes]
