"""JAX103-JAX105: what a static class holds must be static too (SPEC 3).

A static value is found again by `hash` and `==`, so its hash and equality
must see every field the compiled function reads (and the type, when there are
subclasses), and every field must itself be static: no array, no mutable or
identity-hashed object, and no callable created per instance.
"""

from __future__ import annotations

from jaxcheck import facts as f
from jaxcheck.model.classes import VALUE, Field
from jaxcheck.model.evidence import built_repeatedly, runs_repeatedly
from jaxcheck.model.jax_api import ABSTRACT_DECORATORS
from jaxcheck.model.jax_versions import STALE, outcomes
from jaxcheck.model.project import Model
from jaxcheck.model.state import Reads
from jaxcheck.model.static_uses import CALL_SITE, FIELD
from jaxcheck.rules.base import ClassRule, about_uses, uses_text

_UNHASHABLE = ("an array", "a list", "a dict", "a set", "a bytearray")


def _read_by_uses(uses, class_qualname: str, model: Model) -> Reads:
    """What the compiled functions read on the static value, through its methods."""
    reads = Reads()
    for use in uses:
        reads |= use.reads
    return model.state.object_reads(class_qualname, reads)


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

    def judge(self, path, cls, traits, uses, model):
        if traits.hashing != VALUE:
            return
        uses = [use for use in uses if model.hash_consulted(use)]
        if not uses:
            return
        reads = _read_by_uses(uses, cls.qualname, model)
        sources: dict[str, set[str]] = {}
        for field in model.classes.fields(cls.qualname):
            found = _sources(field, model)
            if found:
                sources.setdefault(field.name, set()).update(found)
        methods = {method.name for method in model.symbols.methods(cls.qualname)}
        wanted = {name for name in sources if reads.opaque or name in reads.attributes} - methods
        # JAX keys the type of a top-level static argument itself: only an object
        # held inside another static value needs its type in `==`.
        nested = any(use.via == FIELD for use in uses)
        subclasses = model.symbols.subclasses.get(cls.qualname, ())
        eq = model.classes.equality_method(cls.qualname, "__eq__")
        hash_ = model.classes.equality_method(cls.qualname, "__hash__")
        # Only `==` can make two different values one cache entry: a hash that
        # leaves something out merely collides, unless `==` leaves it out too.
        eq_missing, eq_typed = _left_out(eq, cls.qualname, wanted, sources, model)
        hash_missing, hash_typed = _left_out(hash_, cls.qualname, wanted, sources, model)
        for method, missing, untyped in (
            (eq, eq_missing, nested and bool(subclasses) and not eq_typed),
            (hash_, hash_missing & eq_missing, nested and bool(subclasses) and not eq_typed and not hash_typed),
        ):
            if method is None or not (missing or untyped):
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
                model.symbols.path_of[method.qualname],
                method.location,
                f"{named} {'; it '.join(problems)}, but {uses_text(uses, model)}: values "
                "that differ only there compare equal and find each other's compiled function, which gives "
                "stale results. Put every such field in both `__eq__` and `__hash__`"
                + (" and the type (`type(self)`)" if untyped else "")
                + ", or let `@dataclass(frozen=True)` write them.",
            )


def _left_out(method, class_qualname: str, wanted: set[str], sources: dict, model: Model):
    """(wanted fields whose sources a hand-written method does not read, whether it reads the type).

    A field derived from the constructor arguments another compared field
    holds (`self._key = (a, b)`, `self.n = len(dims)`) is covered by it.
    """
    if method is None:
        return set(), True
    covered, everything, typed = _coverage(method, class_qualname, model)
    if everything:
        return set(), True
    seen = set().union(*(sources.get(name, {name}) for name in covered))
    return {name for name in wanted if not sources[name] <= seen}, typed


def _sources(field: Field, model: Model) -> set[str]:
    """The constructor arguments a field carries; empty for one computed from
    nothing it was given (a cache, a constant)."""
    if field.declared:
        return {field.name}
    value = field.value
    if value is None:
        return set()
    return {candidate.ref.name for candidate in (value, *value.args) if _is_parameter(candidate, model)}


def _is_parameter(value: f.Value, model: Model) -> bool:
    if value.kind != f.NAME or value.ref is None or not value.ref.is_local or value.ref.attributes:
        return False
    known = model.symbols.functions.get(value.ref.function)
    return known is not None and any(parameter.name == value.ref.name for parameter in known.parameters[1:])


def _coverage(method: f.FunctionFacts, class_qualname: str, model: Model) -> tuple[set[str], bool, bool]:
    """(fields it reads, whether it may read everything, whether it reads the type)."""
    covered, everything, typed = set(), False, False
    for position, parameter in enumerate(method.parameters[:2]):
        use = method.parameter_use(parameter.name)
        if use is None:
            continue
        reads = model.state.parameter_reads(method, parameter.name, class_qualname if position == 0 else None)
        covered.update(reads.attributes)
        everything = everything or (
            position == 0 and (reads.opaque or "__dict__" in reads.attributes or _polymorphic(reads, class_qualname, model))
        )
        typed = typed or "__class__" in reads.attributes or any(
            ref is not None and ref.dotted == "builtins.type" for ref in use.passed_to
        )
    return covered, everything, typed


def _polymorphic(reads: Reads, class_qualname: str, model: Model) -> bool:
    """The method reads a method or property that a subclass overrides (or that
    is abstract): what it covers depends on the class of the object at hand."""
    subclasses = model.symbols.all_subclasses(class_qualname)
    for name in reads.attributes:
        method = model.symbols.find_method(class_qualname, name)
        if method is None:
            continue
        if any(decorator.dotted in ABSTRACT_DECORATORS for decorator in method.decorators):
            return True
        if any(model.symbols.method(sub, name) is not None for sub in subclasses):
            return True
    return False


def compared_fields(class_qualname: str, model: Model) -> set[str] | None:
    """The fields `==` compares; None when every field may be."""
    eq = model.classes.equality_method(class_qualname, "__eq__")
    if eq is not None:
        covered, everything, _ = _coverage(eq, class_qualname, model)
        return None if everything else covered
    if any(model.classes.is_dataclass_like(cls) for cls in model.symbols.mro(class_qualname)):
        return {field.name for field in model.classes.fields(class_qualname) if field.compared}
    return set()  # compared by identity: a field changes nothing (JAX102 speaks of that)


class DynamicChildOfStatic(ClassRule):
    """No static class may hold dynamic children (the design standard).

    An array or a list is unhashable, so a class whose generated hash covers
    one makes JAX raise; one hashed by identity silently bakes what it holds
    into the compiled function, which goes stale when it is changed in place;
    a mutable or identity-hashed object has the faults it would have at the
    top (its state is the hazard of the outermost static object, JAX101).
    """

    code = "JAX104"
    name = "dynamic-child-of-static"
    summary = "a static class holds an array, or an object that is not static-safe"
    facts = ("unhashable-key", "identity-key", "changed-value-key")

    def check(self, model: Model):
        reported = set()
        for finding in super().check(model):
            if (finding.path, finding.line, finding.column) not in reported:
                reported.add((finding.path, finding.line, finding.column))
                yield finding

    def judge(self, path, cls, traits, uses, model):
        # A field `==` does not compare is derived from those it does (a
        # `_taps = np.linspace(...)` built in `__post_init__`): a constant of the key.
        compared = compared_fields(cls.qualname, model)
        hashed_by_generated = (
            traits.hashing == VALUE
            and model.classes.equality_method(cls.qualname, "__hash__") is None
            and any(model.hash_consulted(use) for use in uses)
        )
        reads = _read_by_uses(uses, cls.qualname, model)
        changed = {
            change.path[0]: change
            for change in model.state.changes(cls.qualname)
            if change.in_place and len(change.path) == 1 and reads.include(change.path)
        }
        seen = set()
        for field in sorted(model.classes.fields(cls.qualname), key=lambda field: (field.path, field.location)):
            if compared is not None and compared and field.name not in compared:
                continue
            held = model.values.field_holds(field)
            if held is None or field.name in seen:
                continue
            seen.add(field.name)
            where = uses_text(uses, model)
            if hashed_by_generated and held.startswith(_UNHASHABLE) and (field.compared or not field.declared):
                consequence = (
                    f"`{cls.name}`'s generated `__hash__` hashes it, so JAX raises `ValueError: Non-hashable "
                    "static arguments are not supported` on the call"
                )
                evidence = True
            elif field.name in changed and not traits.mutable:
                change = changed[field.name]
                kinds = outcomes("changed-value-key", model.target) if traits.hashing == VALUE else (STALE,)
                consequence = (
                    f"`{change.text}` at "
                    f"{change.file}:{change.location.line} changes it in place, and "
                    + ("the next call silently reuses the function compiled for the old value"
                       if kinds == (STALE,) else
                       "the next call compiles again (JAX 0.11 and later), keeping a cache entry keyed on the "
                       "changed object" if len(kinds) == 1 else
                       "JAX before 0.11 silently reuses the function compiled for the old value, and 0.11 and "
                       "later compile again")
                )
                evidence = True
            else:
                consequence = (
                    "a static value is found again by its hash, and a static class must hold only static values "
                    "(JAX bakes what a static object holds into the compiled code)"
                )
                evidence = False
            yield self.finding(
                field.path,
                field.location,
                f"`{cls.name}.{field.name}` holds {held}, but {where}: {consequence}. Pass `{field.name}` as a "
                "regular (traced) argument, or keep a hashable, immutable value there (a tuple, a frozen dataclass).",
                evidence=evidence,
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

    def check(self, model: Model):
        yield from super().check(model)
        yield from self._construction_sites(model)

    def judge(self, path, cls, traits, uses, model):
        compared = compared_fields(cls.qualname, model)
        uses = [use for use in uses if model.hash_consulted(use)]
        if not uses:
            return
        built = built_repeatedly(model, cls.qualname, uses)
        for method in model.symbols.classes[cls.qualname].methods:
            function = model.symbols.functions[method]
            if not function.is_instance_method:
                continue
            for write, write_path in model.symbols.writes.get(f.Ref(function.self_name, method), ()):
                if compared is not None and write.attribute not in compared:
                    continue  # not part of `==`: it cannot split the cache
                made = model.values.per_instance_callable(write.value, cls.qualname)
                if made is not None:
                    what = f"`{cls.name}.{write.attribute}`"
                    yield self._finding(write_path, write.location, what, made, uses, built, model)

    def _construction_sites(self, model: Model):
        """`Cfg(fn=obj.method)` where the object built reaches a static position."""
        symbols = model.symbols
        seen = set()
        for path, module in symbols.modules.items():
            # An argument keeps its own arguments only as a call recorded on its own.
            recorded = {call.key: call for _, call in module.calls}
            for use in model.static_uses:
                if use.path != path or use.via != CALL_SITE or use.value is None or not use.class_qualname:
                    continue
                if model.classes.traits(use.class_qualname) is None:
                    continue
                value = use.value
                if use.enclosing == "" and value.kind == f.CALL or (
                    value.kind == f.NAME and value.ref is not None and not symbols.canonical(value.ref).is_local
                ):
                    continue  # built once, when the module is imported: one trace, no harm
                built = [value] if value.kind == f.CALL else [
                    binding.value for binding in symbols.bindings.get(symbols.canonical(value.ref), ())
                ]
                compared = compared_fields(use.class_qualname, model)
                for call in built:
                    call = recorded.get(call.key, call)
                    if symbols.constructed_class(call) != use.class_qualname:
                        continue
                    arguments = [*((f"argument {n}", arg) for n, arg in enumerate(call.args, 1)), *call.keywords]
                    for key, argument in arguments:
                        if compared is not None and not key.startswith("argument ") and key not in compared:
                            continue
                        made = model.values.per_instance_callable(argument, "")
                        if made is None or argument.location in seen or key == "**":
                            continue
                        seen.add(argument.location)
                        name = use.class_qualname.rpartition(".")[2]
                        what = f"`{name}.{key}`" if not key.startswith("argument ") else f"`{name}(...)` ({key})"
                        repeated = runs_repeatedly(model, path, call.location)
                        built_text = f"built in code that runs again and again ({path}:{call.location.line})" if repeated else ""
                        yield from about_uses([self._finding(path, argument.location, what, made, [use], built_text, model)], [use])

    def _finding(self, path, location, what, made, uses, built: str, model: Model):
        consequence = (
            f"every new instance misses the cache and recompiles, and it is {built}"
            if built
            else "every new instance would miss the cache and recompile (nothing here builds more than one)"
        )
        return self.finding(
            path,
            location,
            f"{what} is given {made}, made anew for each instance, but "
            f"{uses_text(uses, model)}: it hashes and compares by identity, so {consequence}. Store a module-level "
            "function or `Class.method` (singletons), or call the method instead of storing it.",
            evidence=bool(built),
        )
