"""What JAX does with static values, release by release (SPEC 1).

Rules state consequences, and a consequence is only true for some JAX
releases: a value-hashed static object changed after the first call
recompiles on jax 0.4.30 to 0.8.3, gives a stale result on 0.9.0 to 0.10.2
and recompiles again from 0.11.0 on. Every fact a rule rests on is here once,
with the releases it was measured on; a rule asks `outcomes` what a fact
means for the project's `Target`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

# The releases the fixtures are run on by the test suite (one per interpreter).
SUITE_RELEASES = ("0.10.2", "0.12.0.1")
NEWEST_KNOWN = "0.12.0.1"

_TOO_WIDE = re.compile(r"\d{20}")  # a number in a version with this many digits is not a release

STALE = "stale"  # calls after the change reuse the function compiled for the old state
RECOMPILES = "recompiles"  # every change compiles again; the cache keeps entries keyed on changed objects

# The releases the cache probe (SPEC 1's facts, one virtualenv each, CPU) was run on, oldest first.
PROBED = (
    "0.4.30", "0.4.38", "0.5.3", "0.6.2", "0.7.2", "0.8.0", "0.8.1", "0.8.2", "0.8.3", "0.9.0", "0.9.0.1",
    "0.9.1", "0.9.2", "0.10.0", "0.10.1", "0.10.2", "0.11.0", "0.11.1", "0.11.2", "0.12.0", "0.12.0.1",
)


@dataclass(frozen=True)
class Fact:
    """One thing JAX does with static values, and the releases it was measured on.

    A fact that changed across releases has `eras`: (first release, outcome
    from it on), oldest first. The first era also stands for the releases
    older than it, which were not measured.
    """

    key: str
    text: str
    checked: tuple[str, ...]
    eras: tuple[tuple[str, str], ...] = ()


FACTS: tuple[Fact, ...] = (
    Fact(
        "changed-value-key",
        "a value-hashed static object changed after it became a `jax.jit` cache key",
        checked=PROBED,
        eras=(("0.4.30", RECOMPILES), ("0.9.0", STALE), ("0.11.0", RECOMPILES)),
    ),
    Fact(
        "identity-key",
        "a static object that hashes by identity: stale after a change, one compilation per equal copy",
        checked=PROBED,
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
        checked=PROBED,
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
    Fact(
        "static-key",
        "each new value of a static argument (and each Python number under `eqx.filter_jit`) compiles again",
        checked=SUITE_RELEASES,
    ),
)
_BY_KEY = {fact.key: fact for fact in FACTS}


def fact(key: str) -> Fact:
    return _BY_KEY[key]


def parse_version(text: str) -> Version | None:
    """A release such as "0.11" or "0.12.0.1"; None for anything else.

    A number wider than any release uses is refused before `Version` reads
    it: Python will not turn thousands of digits into an int, and raises."""
    if _TOO_WIDE.search(text):
        return None
    try:
        version = Version(text)
    except (InvalidVersion, ValueError):
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

    def admits(self, start: str | None, end: str | None) -> bool:
        """Some admitted release is `start` or newer and older than `end` (None: unbounded)."""
        if start is not None and self.high is not None:
            high, first = Version(self.high), Version(start)
            if high < first or high == first and not self.high_inclusive:
                return False
        return end is None or self.low is None or Version(self.low) < Version(end)

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


def eras(key: str, target: Target | None = None) -> tuple[tuple[str, str], ...]:
    """(releases, outcome) for each era of a changed fact that `target` admits
    (every era without one), oldest first, the releases as messages name them:
    `("< 0.9", RECOMPILES), ("0.9 to 0.10", STALE), (">= 0.11", RECOMPILES)`."""
    known = _BY_KEY[key]
    found = []
    for index, (start, outcome) in enumerate(known.eras):
        first = start if index else None  # the oldest era also holds the releases older than it
        end = known.eras[index + 1][0] if index + 1 < len(known.eras) else None
        if target is None or target.admits(first, end):
            found.append((_named_releases(known, first, end), outcome))
    return tuple(found)


def outcomes(key: str, target: Target) -> tuple[str, ...]:
    """What a changed fact does on the releases `target` admits: the outcome of
    each era it admits, oldest first, each once (`(RECOMPILES, STALE)` for
    jax >= 0.4.30)."""
    found = tuple(dict.fromkeys(outcome for _, outcome in eras(key, target)))
    return found or tuple(outcome for _, outcome in _BY_KEY[key].eras[-1:])  # none admitted: the newest


def releases_with(key: str, outcome: str, target: Target | None = None) -> str:
    """The releases (that `target` admits) on which a changed fact has
    `outcome`: `jax < 0.9 and >= 0.11`; "" on none."""
    named = [releases for releases, found in eras(key, target) if found == outcome]
    return "jax " + " and ".join(named) if named else ""


def describe_outcomes(key: str, target: Target) -> str:
    """`recompiles on jax < 0.9, stale on jax 0.9 to 0.10, recompiles on jax >= 0.11`,
    or the one outcome that holds on every release `target` admits."""
    found = outcomes(key, target)
    if len(found) == 1:
        return found[0]
    return ", ".join(f"{outcome} on jax {releases}" for releases, outcome in eras(key, target))


def _named_releases(known: Fact, start: str | None, end: str | None) -> str:
    """`< 0.9`, `0.9 to 0.10` or `>= 0.11`: the releases from `start` and before `end`,
    up to the last release measured before `end` (its series, when `end` starts one)."""
    if start is None:
        return f"< {_named(end)}"
    if end is None:
        return f">= {_named(start)}"
    last = max(Version(release) for release in known.checked if Version(release) < Version(end))
    upto = f"{last.major}.{last.minor}" if _named(end).count(".") == 1 else str(last)
    return f"{_named(start)} to {upto}"


def _named(release: str) -> str:
    """`0.9` for 0.9.0, the first of its series; other releases as they are."""
    version = Version(release)
    series = f"{version.major}.{version.minor}"
    return series if version == Version(series) else release
