"""JAX101, JAX102, JAX106: values at static positions must be immutable and hash by value (SPEC 3).

JAX compiles a function once per set of static values and finds the compiled
function again by their `hash` and `==`, keeping the objects themselves as
keys. A static value that changes after the first call, or that hashes by
identity, or that cannot be hashed, breaks that cache.
"""

from __future__ import annotations

from jaxcheck.model.classes import IDENTITY, UNHASHABLE, VALUE
from jaxcheck.model.evidence import Staleness, built_repeatedly, later_changes, runs_repeatedly
from jaxcheck.model.jax_versions import RECOMPILES, STALE, Target, outcomes, since
from jaxcheck.model.project import Model
from jaxcheck.model.state import Reads
from jaxcheck.model.static_uses import FIELD, StaticUse
from jaxcheck.rules.base import ClassRule, Rule, about_uses, uses_text

_UNHASHABLE_ERROR = "`ValueError: Non-hashable static arguments are not supported`"
_INSTEAD = {
    "list": "a tuple",
    "dict": "a tuple of (key, value) pairs or a frozen dataclass",
    "set": "a frozenset",
    "bytearray": "bytes",
    "array": "a tuple of Python numbers, or pass the array as a regular (traced) argument",
}


def _hashes_once(use: StaticUse) -> bool:
    """The use's transform (or the outermost use's) hashes keys once on every release."""
    return use.outermost.spec.transform.hashes_once


class MutableStatic(Rule):
    """A mutable object at a static position goes stale.

    JAX keeps the static object itself as the cache key: after the object is
    changed, the next call finds the same entry and reuses the function
    compiled for the old state. From JAX 0.11 on, `jax.jit` hashes a key when
    it stores it, so a class that hashes by value compiles again on every
    change instead, leaving entries keyed on changed objects in the cache.
    State held by an object in a field of the static one counts too, and is
    reported at the outermost static class.
    """

    code = "JAX101"
    name = "mutable-static"
    summary = "a mutable class reaches a static position and the jitted function reads its state"
    facts = ("changed-value-key", "identity-key", "hashes-once")

    def check(self, model: Model):
        for qualname, uses in model.static_uses_by_class.items():
            traits = model.classes.traits(qualname)
            if traits is None or traits.hashing == UNHASHABLE:
                continue
            path = model.symbols.path_of[qualname]
            top = [use for use in uses if use.via != FIELD and use.reads_state]
            yield from about_uses(self._outermost(model, qualname, path, traits, top), top)
            nested = [use for use in uses if use.via == FIELD and model.hash_consulted(use)]
            if nested and traits.mutable and traits.has_state:
                # Standard only: its state is the hazard of the object holding it.
                cls = model.symbols.classes[qualname]
                message = (
                    f"`{cls.name}` is mutable ({traits.mutable_because}) but {uses_text(nested, model)}: an object "
                    f"held by a static value is static too. {_fix(cls.name)}"
                )
                yield from about_uses([self.finding(path, cls.location, message, evidence=False)], nested)

    def _outermost(self, model: Model, qualname: str, path: str, traits, uses: list[StaticUse]):
        """The class as the static object itself: stale through its own state or its fields'."""
        if not uses:
            return
        cls = model.symbols.classes[qualname]
        reads = Reads()
        for use in uses:
            reads |= use.reads
        stale = [
            item
            for item in later_changes(model, qualname, reads, uses)
            if (item.holder != qualname or traits.mutable)
            and not (_key_changes(model, qualname, item) and all(_hashes_once(use) for use in uses))
        ]
        where = uses_text(uses, model)
        target = model.target
        inside = sorted(
            {item.change.location: item for item in stale if item.change.inside and item.holder == qualname
             and item.change.file == path}.values(),
            key=lambda item: item.change.location,
        )
        for item in inside:
            consequence = _after_change(self._outcomes(model, qualname, item, target), "the change", target)
            yield self.finding(
                path,
                item.change.location,
                f"`{cls.name}` is mutable and this method changes `self.{'.'.join(item.change.path)}` after "
                f"construction, but {where}: {consequence}. {_fix(cls.name)}",
            )
        if inside:
            return
        if stale:
            item = min(stale, key=lambda item: (item.change.file, item.change.location))
            change = f"`{item.change.text}` at {item.change.file}:{item.change.location.line}"
            consequence = _after_change(self._outcomes(model, qualname, item, target), change, target)
            if item.holder == qualname:
                what = f"`{cls.name}` is mutable ({traits.mutable_because})"
            else:
                held = item.holder.rpartition(".")[2]
                what = f"`{cls.name}` holds a mutable `{held}` in `{'.'.join(item.read[:-1]) or item.read[0]}`, whose state the traced code reads"
            yield self.finding(path, cls.location, f"{what} but {where}: {consequence}. {_fix(cls.name)}")
        elif traits.mutable and traits.has_state and not (traits.hashing == VALUE and all(map(_hashes_once, uses))):
            yield self.finding(
                path,
                cls.location,
                f"`{cls.name}` is mutable ({traits.mutable_because}) but {where}; nothing here changes it after "
                f"the first call, but a change would not be seen. {_fix(cls.name)}",
                evidence=False,
            )

    @staticmethod
    def _outcomes(model: Model, qualname: str, item: Staleness, target: Target) -> tuple[str, ...]:
        return outcomes("changed-value-key", target) if _key_changes(model, qualname, item) else (STALE,)


def _key_changes(model: Model, qualname: str, item: Staleness) -> bool:
    """The change changes the static object's hash: every object from it down to
    the changed one hashes by value (an identity hash does not see the change)."""
    classes = {qualname, item.holder}
    return all((traits := model.classes.traits(cls)) is not None and traits.hashing == VALUE for cls in classes)


def _fix(name: str) -> str:
    return (
        f"Make `{name}` immutable (`@dataclass(frozen=True)`, and `dataclasses.replace` for a changed copy) "
        "or pass it as a pytree argument instead of a static one."
    )


def _after_change(consequences: tuple[str, ...], change: str, target: Target) -> str:
    """What JAX does once the static object changes, on the releases the project targets."""
    release = since("changed-value-key")
    if consequences == (STALE,):
        return (
            f"JAX keeps the static object as its cache key, so after {change} the next call silently reuses "
            "the function compiled for the old state"
        )
    if consequences == (RECOMPILES,):
        return (
            f"JAX {release} and later hash a static key when they store it, so after {change} every change "
            "compiles again and the cache keeps entries keyed on changed objects (JAX before "
            f"{release} silently reuses the function compiled for the old state)"
        )
    return (
        f"after {change}, JAX before {release} silently reuses the function compiled for the old state, and "
        f"JAX {release} and later compile again on every change, keeping cache entries keyed on changed objects "
        f"(the project admits both: jax {target.describe()})"
    )


class IdentityHashStatic(ClassRule):
    """An object that hashes by identity at a static position recompiles for every copy.

    Two equal instances are different cache keys, so each fresh instance
    traces and compiles again. Only true singletons (Enum members,
    module-level functions) may hash by id. An object held in a field of a
    static object that itself hashes by identity is never hashed by JAX.
    """

    code = "JAX102"
    name = "identity-hash-static"
    summary = "a class that hashes or compares by identity reaches a static position"
    facts = ("identity-key",)

    def judge(self, path, cls, traits, uses, model):
        if traits.hashing != IDENTITY:
            return
        uses = [use for use in uses if model.hash_consulted(use)]
        if not uses:
            return
        built = built_repeatedly(model, cls.qualname, uses)
        consequence = (
            f"it is {built}, so each new, equal instance traces and compiles again"
            if built
            else "each new, equal instance would trace and compile again (nothing here builds more than one)"
        )
        yield self.finding(
            path,
            traits.hashing_location or cls.location,
            f"`{cls.name}` hashes and compares by identity ({traits.hashing_because}) but {uses_text(uses, model)}: "
            f"JAX finds compiled functions by the static value's hash and `==`, and {consequence}. Hash and "
            "compare by value: `@dataclass(frozen=True)`, or `__hash__` and `__eq__` over every field.",
            evidence=bool(built),
        )


class UnhashableStatic(ClassRule):
    """An unhashable static value makes `jax.jit` raise when the function is called.

    `jax.checkpoint` does not raise: it retraces for every fresh, equal value
    and goes stale after an in-place change.
    """

    code = "JAX106"
    name = "unhashable-static"
    summary = "an unhashable value (list, dict, set, array, non-frozen dataclass) reaches a static position"
    facts = ("unhashable-key",)

    def check(self, model: Model):
        yield from super().check(model)
        for use in model.static_uses:
            if not use.unhashable:
                continue
            kind, transform = use.unhashable, use.spec.transform
            name = model.symbols.short_name(use.function)
            what = f"{'an' if kind == 'array' else 'a'} {kind} is passed as static argument `{use.parameter}` of `{name}`"
            if transform.raises_on_unhashable:
                yield self.finding(
                    use.path,
                    use.location,
                    f"{what}: it is unhashable, so JAX raises {_UNHASHABLE_ERROR} on this call. Pass {_INSTEAD[kind]} instead.",
                )
                continue
            repeated = runs_repeatedly(model, use.path, use.location)
            yield self.finding(
                use.path,
                use.location,
                f"{what}: `{transform.name}` keys its cache on the {kind} itself, so "
                + ("this call, made again and again, traces again every time"
                   if repeated else "every fresh, equal one traces again")
                + f", and an in-place change is never seen. Pass {_INSTEAD[kind]} instead.",
                evidence=repeated,
            )

    def judge(self, path, cls, traits, uses, model):
        if traits.hashing != UNHASHABLE:
            return
        uses = [use for use in uses if model.hash_consulted(use)]
        raising = [use for use in uses if use.outermost.spec.transform.raises_on_unhashable]
        if not raising:
            return
        yield self.finding(
            path,
            traits.hashing_location or cls.location,
            f"`{cls.name}` is unhashable ({traits.hashing_because}) but {uses_text(raising, model)}: JAX raises "
            f"{_UNHASHABLE_ERROR} when the function is called. Make it immutable and hashable by value: "
            "`@dataclass(frozen=True)`, or a `__hash__` over the same fields as `__eq__` on an immutable class.",
        )
