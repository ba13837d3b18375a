"""Textual tests that skip files which cannot matter, before any parse.

Every static use of the JAX1xx rules is a static parameter written out
(`static_argnums=`, `static_argnames=`, `static_broadcasted_argnums=`) or an
equinox `filter_jit`/`filter_pmap`, and JAX202 looks at jit decorators, so a
file with none of that text holds no finding of its own module; its findings,
if any, are about classes it defines. Parsing is the dominant cost, and most
files fail these tests.
"""

from __future__ import annotations

import re

TRIGGERS = ("static_arg", "static_broadcasted_argnums", "filter_jit", "filter_pmap")
# A jit decorator, or jit imported under another name (JAX202 looks at the
# methods jit decorates).
_JIT_DECORATOR = re.compile(r"@[^\n]*\bp?jit\b|\bp?jit\s+as\s+\w")


def may_have_findings(text: str, keywords: tuple[str, ...] = ()) -> bool:
    """Whether the file can hold a static use (and so a finding of its own module).

    `keywords` are the static keywords of configured transforms.
    """
    return (
        any(trigger in text for trigger in TRIGGERS)
        or any(keyword in text for keyword in keywords)
        or _JIT_DECORATOR.search(text) is not None
    )


def may_hold_findings_of_project(text: str, keywords: tuple[str, ...] = ()) -> bool:
    """Whether the file can hold any finding once its project is considered: a
    static use, a class that a static use elsewhere names, or a call of a
    function transformed in another module (which it must import)."""
    return may_have_findings(text, keywords) or "class" in text or "import" in text
