"""JAX1xx: values at static positions must be immutable and hash by value (SPEC 3).

JAX compiles a function once per set of static values and finds the compiled
function again by their `hash` and `==`, keeping the objects themselves as
keys. A static value that changes after the first call, or that hashes by
identity, or that cannot be hashed, breaks that cache.
"""

from __future__ import annotations

from jaxcheck import facts as f
from jaxcheck.model.project import Analysis
from jaxcheck.model.jax_versions import RECOMPILES, STALE, Target, outcomes, since
from jaxcheck.rules.base import ClassRule, short_name, uses_text
from jaxcheck.model.classes import IDENTITY, UNHASHABLE, VALUE
from jaxcheck.model.static_uses import StaticUse

_UNHASHABLE_ERROR = "`ValueError: Non-hashable static arguments are not supported`"


def _hashes_once(use: StaticUse) -> bool:
    """The use's transform (or the outer use's, for an object held in a field) hashes keys once."""
    while use.outer is not None:
        use = use.outer
    return use.spec.transform.hashes_once


def _precedes(write: f.AttributeWrite, path: str, use: StaticUse) -> bool:
    """The write comes before the static use in the same function: it cannot make that call stale."""
    return path == use.path and write.function == use.enclosing and write.location < use.location


def _object_name(ref: str) -> str:
    """`pkg.mod.main:cfg.inner` -> `cfg.inner`, `pkg.mod.cfg` -> `cfg`."""
    return ref.partition(":")[2] if ":" in ref else ref.rpartition(".")[2]


class MutableStatic(ClassRule):
    """A mutable object at a static position goes stale.

    JAX keeps the static object itself as the cache key: after the object is
    changed, the next call finds the same entry and reuses the function
    compiled for the old state. From JAX 0.11 on, `jax.jit` hashes a key when
    it stores it, so a class that hashes by value compiles again on every
    change instead, leaving entries keyed on changed objects in the cache.
    """

    code = "JAX101"
    name = "mutable-static"
    summary = "a mutable class reaches a static position and the jitted function reads its state"
    facts = ("changed-value-key", "identity-key", "hashes-once")

    def judge(self, module, cls, traits, uses, analysis):
        if not traits.mutable or not traits.has_state or traits.hashing == UNHASHABLE:
            return
        reading = [use for use in uses if use.reads_state and (traits.hashing != VALUE or not _hashes_once(use))]
        if not reading:
            return
        read = set()
        opaque = False
        for use in reading:
            read.update(use.reads)
            opaque = opaque or use.reads_opaque
        sites = [
            (write, path, inside)
            for write, path, inside in analysis.safety.mutation_sites(cls.qualname)
            if (opaque or write.attribute in read or write.attribute == "*")
            and (inside or any(not _precedes(write, path, use) for use in reading))
        ]
        where = uses_text(reading, analysis)
        fix = (
            f"Make `{cls.name}` immutable (`@dataclass(frozen=True)`, and `dataclasses.replace` for a changed copy) "
            "or pass it as a pytree argument instead of a static one."
        )
        target = analysis.options.target
        consequences = outcomes("changed-value-key", target) if traits.hashing == VALUE else (STALE,)
        inside = sorted(
            {write.location: write for write, path, within in sites if within and path == module.path}.values(),
            key=lambda write: write.location,
        )
        for write in inside:
            yield self.finding(
                module.path,
                write.location,
                f"`{cls.name}` is mutable and this method changes `self.{write.attribute}` after construction, "
                f"but {where}: {_after_change(consequences, 'the change', target)}. {fix}",
            )
        if inside:
            return
        outside = [(write, path) for write, path, within in sites if not within]
        if outside:
            write, path = min(outside, key=lambda item: (item[1], item[0].location))
            change = f"`{_object_name(write.target)}.{write.attribute} = ...` at {path}:{write.location.line}"
        else:
            change = "an instance is changed"
        yield self.finding(
            module.path,
            cls.location,
            f"`{cls.name}` is mutable ({traits.mutable_because}) but {where}: "
            f"{_after_change(consequences, change, target)}. {fix}",
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
    traces and compiles again; and a change to one instance is never seen.
    Only true singletons (Enum members, module-level functions) may hash by id.
    """

    code = "JAX102"
    name = "identity-hash-static"
    summary = "a class that hashes or compares by identity reaches a static position"
    facts = ("identity-key",)

    def judge(self, module, cls, traits, uses, analysis):
        if traits.hashing != IDENTITY:
            return
        yield self.finding(
            module.path,
            traits.hashing_location or cls.location,
            f"`{cls.name}` hashes and compares by identity ({traits.hashing_because}) but {uses_text(uses, analysis)}: "
            "JAX finds compiled functions by the static value's hash and `==`, so every new, equal instance "
            "recompiles and a change to an instance is never seen. Hash and compare by value: "
            "`@dataclass(frozen=True)`, or `__hash__` and `__eq__` over every field.",
        )


class UnhashableStatic(ClassRule):
    """An unhashable static value makes JAX raise when the function is called."""

    code = "JAX106"
    name = "unhashable-static"
    summary = "an unhashable value (list, dict, set, array, non-frozen dataclass) reaches a static position"
    facts = ("unhashable-key",)

    def check(self, module: f.ModuleFacts, analysis: Analysis):
        yield from super().check(module, analysis)
        for use in analysis.static_uses:
            if use.path != module.path or not use.unhashable:
                continue
            kind = use.unhashable
            instead = {
                "list": "a tuple",
                "dict": "a tuple of (key, value) pairs or a frozen dataclass",
                "set": "a frozenset",
                "bytearray": "bytes",
                "array": "a tuple of Python numbers, or pass the array as a regular (traced) argument",
            }[kind]
            name = short_name(use.function, analysis)
            yield self.finding(
                module.path,
                use.location,
                f"{'an' if kind == 'array' else 'a'} {kind} is passed as static argument `{use.parameter}` of "
                f"`{name}`: it is unhashable, so JAX raises {_UNHASHABLE_ERROR} on this call. Pass {instead} instead.",
            )

    def judge(self, module, cls, traits, uses, analysis):
        if traits.hashing != UNHASHABLE:
            return
        yield self.finding(
            module.path,
            traits.hashing_location or cls.location,
            f"`{cls.name}` is unhashable ({traits.hashing_because}) but {uses_text(uses, analysis)}: JAX raises "
            f"{_UNHASHABLE_ERROR} when the function is called. Make it immutable and hashable by value: "
            "`@dataclass(frozen=True)`, or a `__hash__` over the same fields as `__eq__` on an immutable class.",
        )
