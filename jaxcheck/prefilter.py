"""Textual tests that skip files which cannot matter, before any parse.

Every static use of the JAX1xx rules is a static parameter written out
(`static_argnums=`, `static_argnames=`, `static_broadcasted_argnums=`) or an
equinox `filter_jit`/`filter_pmap`, and the JAX2xx and JAX401 rules look at
where `jit`, `pjit` and `pmap` are applied, and the JAX3xx rules at pytree
registrations and static fields, so a file with none of that text holds no
finding of its own module; its findings, if any, are about classes
it defines. Parsing is the dominant cost, and most files fail these tests.
"""

from __future__ import annotations

import re

TRIGGERS = ("static_arg", "static_broadcasted_argnums", "filter_jit", "filter_pmap")
# Where a transform is applied in the shapes the JAX2xx rules and JAX401 look
# at: to a lambda, a partial or `obj.attr`; to a name inside a function or
# class; as a decorator of a method or nested function; made and called at
# once; passed on (`partial(jax.jit, ...)`); or imported under another name.
# A pytree registered, or a field declared static (JAX3xx).
_T = r"(?:p?jit|pmap|checkpoint|remat|make_jaxpr)"
_JIT = re.compile(
    rf"\b{_T}\s*\(\s*(?:lambda\b|(?:functools\.)?partial\s*\(|[A-Za-z_]\w*\.)"
    rf"|^[ \t]+[^\n#]*\b{_T}\s*\(\s*\w+\s*[,)]"
    rf"|^[ \t]+@[^\n]*\b{_T}\b"
    rf"|\b{_T}\s*\([^()\n]*\)\s*\("
    rf"|\b{_T}\s*,"
    rf"|\b{_T}\s+as\s+\w",
    re.M,
)
_PYTREE = re.compile(
    r"register_pytree|register_dataclass|static_field|\bstatic\s*=\s*True|pytree_node|\bstatic\(|Static\[|[\"']static[\"']"
)


def may_have_findings(text: str, keywords: tuple[str, ...] = ()) -> bool:
    """Whether the file can hold a static use (and so a finding of its own module).

    `keywords` are the static keywords and names of configured transforms.
    """
    return (
        any(trigger in text for trigger in TRIGGERS)
        or any(keyword in text for keyword in keywords)
        or _JIT.search(text) is not None
        or _PYTREE.search(text) is not None
    )


def may_hold_findings_of_project(text: str, keywords: tuple[str, ...] = ()) -> bool:
    """Whether the file can hold any finding once its project is considered: a
    static use, a class that a static use elsewhere names, or a call of a
    function transformed in another module (which it must import)."""
    return may_have_findings(text, keywords) or "class" in text or "import" in text
