"""The JAX releases a rule's facts were checked on, as its page states them.

Generated from `jax_versions.FACTS`, never written by hand: when a fact is
measured on another release, every page that rests on it says so.
"""

from __future__ import annotations

import textwrap

from jaxcheck.model.jax_versions import RECOMPILES, STALE, SUITE_RELEASES, eras, fact, releases_with

# What each consequence of a changed fact means, as `jax_versions` names them.
_OUTCOMES = {
    STALE: "it is stale (calls after the change reuse the function compiled for the old state)",
    RECOMPILES: (
        "it recompiles (every change compiles again, and the cache keeps entries keyed on changed objects)"
    ),
}


def checked_on(code: str, facts: tuple[str, ...]) -> str:
    """Each fact and the releases it was checked on, then the releases the fixtures run on; "" without facts."""
    if not facts:
        return ""
    items = []
    for key in facts:
        known = fact(key)
        item = f"- {known.text} (checked on jax {_listed(known.checked)})"
        if known.eras:  # each outcome once, with the releases that have it
            outcomes = dict.fromkeys(outcome for _, outcome in eras(key))
            item += ": " + "; ".join(f"on {releases_with(key, outcome)}, {_OUTCOMES[outcome]}" for outcome in outcomes)
        items.append(_wrapped(item + ".", "  "))
    fixtures = f"The fixtures of `fixtures/{code}/` run under the test suite on jax {_listed(SUITE_RELEASES)}."
    return "\n".join(items) + "\n\n" + _wrapped(fixtures, "")


def _listed(releases: tuple[str, ...]) -> str:
    return releases[0] if len(releases) == 1 else ", ".join(releases[:-1]) + " and " + releases[-1]


def _wrapped(text: str, indent: str) -> str:
    return textwrap.fill(text, 76, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
