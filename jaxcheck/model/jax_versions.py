"""What JAX does with static values, release by release (SPEC 1).

Rules state consequences, and a consequence is only true for some JAX
releases: a value-hashed static object changed after the first call gives a
stale result before 0.11 and a recompilation from 0.11 on. Every fact a rule
rests on is here once, with the releases it was measured on; a rule asks
`outcomes` what a fact means for the project's `Target`.
"""

from __future__ import annotations

from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

# The releases the fixtures are run on by the test suite (one per interpreter).
SUITE_RELEASES = ("0.10.2", "0.12.0.1")
NEWEST_KNOWN = "0.12.0.1"

STALE = "stale"  # calls after the change reuse the function compiled for the old state
RECOMPILES = "recompiles"  # every change compiles again; the cache keeps entries keyed on changed objects


@dataclass(frozen=True)
class Fact:
    """One thing JAX does with static values, and the releases it was measured on.

    A fact that changed has `since`, the first release that behaves as
    `after`; older ones behave as `before`.
    """

    key: str
    text: str
    checked: tuple[str, ...]
    since: str = ""
    before: str = ""
    after: str = ""


FACTS: tuple[Fact, ...] = (
    Fact(
        "changed-value-key",
        "a value-hashed static object changed after it became a `jax.jit` cache key",
        checked=("0.10.2", "0.11.0", "0.11.2", "0.12.0", "0.12.0.1"),
        since="0.11.0",
        before=STALE,
        after=RECOMPILES,
    ),
    Fact(
        "identity-key",
        "a static object that hashes by identity: stale after a change, one compilation per equal copy",
        checked=("0.10.2", "0.11.0", "0.11.2", "0.12.0", "0.12.0.1"),
    ),
    Fact(
        "unhashable-key",
        "`jax.jit` raises `ValueError: Non-hashable static arguments are not supported` on an unhashable static argument",
        checked=SUITE_RELEASES,
    ),
    Fact(
        "nested-type",
        "`jax.jit` keys the type of a top-level static argument, not of objects nested in it",
        checked=SUITE_RELEASES,
    ),
    Fact(
        "hashes-once",
        "`pmap`, `checkpoint`/`remat` and `eqx.filter_pmap` hash a static key once, when they store it",
        checked=SUITE_RELEASES,
    ),
    Fact(
        "baked-self",
        "`jax.jit(obj.method)` and a jitted closure over `self` compile in the object's state when traced",
        checked=("0.10.2", "0.11.0", "0.11.2", "0.12.0", "0.12.0.1"),
    ),
    Fact(
        "baked-global",
        "a module-level or closed-over value a jitted function reads is compiled in as a constant when traced",
        checked=SUITE_RELEASES,
    ),
    Fact(
        "self-not-static",
        "`@jax.jit` on a method of a class that is not a pytree raises `TypeError` when called",
        checked=SUITE_RELEASES,
    ),
    Fact(
        "aux-data",
        "pytree `aux_data` and static fields are compared with `==` on every lookup and kept by reference",
        checked=SUITE_RELEASES,
    ),
    Fact(
        "function-key",
        "`jax.jit` keys its cache on the function object: a new function object per call compiles per call",
        checked=SUITE_RELEASES,
    ),
)
_BY_KEY = {fact.key: fact for fact in FACTS}


def fact(key: str) -> Fact:
    return _BY_KEY[key]


def parse_version(text: str) -> Version | None:
    """A release such as "0.11" or "0.12.0.1"; None for anything else."""
    try:
        version = Version(text)
    except InvalidVersion:
        return None
    return version if not (version.is_prerelease or version.is_devrelease or version.local) else None


@dataclass(frozen=True)
class Target:
    """The JAX releases a project may run on, and how jaxcheck knows.

    `low` and `high` bound the releases (None: unbounded on that side);
    `source` says where they come from, for `--show-settings` and messages.
    """

    low: str | None
    high: str | None
    source: str
    low_inclusive: bool = True
    high_inclusive: bool = True

    @classmethod
    def release(cls, version: str, source: str) -> Target:
        return cls(version, version, source)

    def admits_before(self, release: str) -> bool:
        """Some admitted release is older than `release`."""
        return self.low is None or Version(self.low) < Version(release)

    def admits_from(self, release: str) -> bool:
        """Some admitted release is `release` or newer."""
        if self.high is None:
            return True
        high = Version(self.high)
        return high >= Version(release) if self.high_inclusive else high > Version(release)

    def describe(self) -> str:
        """`0.11`, `>=0.4.30`, `>=0.4.30, <0.11` or `any release`."""
        if self.low is not None and self.low == self.high:
            return self.low
        parts = []
        if self.low is not None:
            parts.append((">=" if self.low_inclusive else ">") + self.low)
        if self.high is not None:
            parts.append(("<=" if self.high_inclusive else "<") + self.high)
        return ", ".join(parts) or "any release"


NEWEST = Target(NEWEST_KNOWN, None, f"no requirement on jax found and no jax installed: the newest behaviour known (jax {NEWEST_KNOWN})")


def outcomes(key: str, target: Target) -> tuple[str, ...]:
    """What a fact means on the releases `target` admits: one consequence, or
    both when the target spans the release that changed it (older first)."""
    known = _BY_KEY[key]
    if not known.since:
        return (key,)
    found = []
    if target.admits_before(known.since):
        found.append(known.before)
    if target.admits_from(known.since):
        found.append(known.after)
    return tuple(found) or (known.after,)


def describe_outcomes(key: str, target: Target) -> str:
    """`stale on jax < 0.11, recompiles on jax >= 0.11`, or the one that holds."""
    found = outcomes(key, target)
    if len(found) == 1:
        return found[0]
    release = since(key)
    return f"{found[0]} on jax < {release}, {found[1]} on jax >= {release}"


def since(key: str) -> str:
    """`0.11` for a fact that changed in 0.11.0: how messages name the release."""
    version = Version(_BY_KEY[key].since)
    return f"{version.major}.{version.minor}"
