"""Textual tests that skip files which cannot matter, before any parse.

Every static use of the JAX1xx rules is a static parameter written out
(`static_argnums=`, `static_argnames=`, `static_broadcasted_argnums=`) or an
equinox `filter_jit`/`filter_pmap`, and the JAX2xx and JAX401 rules look at
where `jit`, `pjit` and `pmap` are applied (JAX204 where a module-level
value is changed too, or where a module-level function is jitted: another
module may change what it reads), and the JAX3xx rules at pytree registrations and
static fields, so a file with none of that text holds no
finding of its own module; its findings, if any, are about classes
it defines. Parsing is the dominant cost, and most files fail these tests.
"""

from __future__ import annotations

import re

# `nnx.jit` keys its cache on the plain attributes of every `nnx.Module` it is given.
TRIGGERS = ("static_arg", "static_broadcasted_argnums", "filter_jit", "filter_pmap", "nnx.jit")
# The transforms' names, each as a word. That no word character comes before
# a name is asked after it (a lookbehind), not before it (`\b`): the search
# then skips to the names' first letters instead of trying every position.
_TRANSFORM_NAMES = ("jit", "pjit", "pmap", "checkpoint", "remat", "make_jaxpr")
_TRANSFORM = re.compile(r"(?:%s)\b" % "|".join(rf"{name}(?<!\w{name})" for name in _TRANSFORM_NAMES))
# A transform named, then what follows it in the shapes the JAX2xx rules and
# JAX401 look at: applied to a lambda, a partial, `obj.attr` or what a call
# returns (`jit(checked(self.step))`, a decorator's wrapper); made and
# called at once; passed on (`partial(jax.jit, ...)`); imported under another
# name; chosen by a condition. And what comes before it on an indented line: a decorator of a method
# or nested function, or an application to a name inside a function or class.
_AFTER = re.compile(
    r"\s*\(\s*(?:lambda\b|(?:functools\.)?partial\s*\(|[A-Za-z_]\w*\.|[A-Za-z_]\w*\s*\()"
    r"|\s*\([^()\n]*\)\s*\("
    r"|\s*,"
    r"|\s+as\s+\w"
    r"|\s+if\s"  # chosen by a condition into a local (`func = jax.jit if n == 1 else jax.pmap`)
)
_AFTER_INDENTED = re.compile(r"\s*\(\s*\w+\s*[,)]")
# A module-level value changed: what JAX204 needs besides a transform (a jitted
# function bakes in the globals it reads). `global` in a function, or an item
# written or a mutating method called on a name at the start of a line.
_GLOBAL_CHANGE = re.compile(
    r"^[ \t]*global[ \t]"
    r"|^[ \t]*[A-Za-z_]\w*(?:\.\w+)*\[[^\n]*\][ \t]*[-+*/|&]?="
    r"|^[ \t]*[A-Za-z_]\w*(?:\.\w+)*\.(?:append|extend|insert|update|setdefault|pop|clear|add|remove|discard)\(",
    re.MULTILINE,
)
# A module-level function jitted by decorator or by name: the globals it reads
# may be changed by another module (`config.SCALE = 4.0`), JAX204's evidence.
_MODULE_LEVEL_JIT = re.compile(r"^@[\w.]*\b(?:p?jit|pmap)\b|^[A-Za-z_]\w*[ \t]*=[ \t]*[\w.]*\b(?:p?jit|pmap)\(", re.MULTILINE)
# Pytree registrations and static fields: these words, or `static` marking a
# field (`static_field`, `static=True`, `static(`, `"static"`), looked for
# from each `static` with what comes before it asked after (as `_TRANSFORM`).
_PYTREE_WORDS = ("register_pytree", "register_dataclass", "pytree_node", "Static[")
_STATIC = re.compile(r"static(?:_field|(?<!\wstatic)(?:\s*=\s*True|\()|(?<=[\"']static)[\"'])")


def may_have_findings(text: str, keywords: tuple[str, ...] = ()) -> bool:
    """Whether the file can hold a static use (and so a finding of its own module).

    `keywords` are the static keywords and names of configured transforms.
    """
    if (
        any(trigger in text for trigger in TRIGGERS)
        or any(keyword in text for keyword in keywords)
        or any(word in text for word in _PYTREE_WORDS)
        or _STATIC.search(text) is not None
    ):
        return True
    # Each test left needs a transform named (`_MODULE_LEVEL_JIT` too): most
    # files name none, and are not looked at line by line.
    return _TRANSFORM.search(text) is not None and (
        _applies_a_transform(text) or _GLOBAL_CHANGE.search(text) is not None or _MODULE_LEVEL_JIT.search(text) is not None
    )


def line_bounds(text: str, position: int) -> tuple[int, int]:
    """Where the line holding `position` starts, and where it ends (its newline, or the text's end)."""
    end = text.find("\n", position)
    return text.rfind("\n", 0, position) + 1, len(text) if end < 0 else end


def _applies_a_transform(text: str) -> bool:
    """Each line is looked at once (where it starts, its first `#`, its first
    character that is not a blank), so time is linear however long a line is."""
    line_start = line_end = comment = first = -1
    for match in _TRANSFORM.finditer(text):
        after = text[match.end() : match.end() + 300]
        if _AFTER.match(after):
            return True
        start = match.start()
        if start > line_end:
            line_start, line_end = line_bounds(text, start)
            comment = text.find("#", line_start, line_end)
            first = line_start + len(text[line_start:line_end]) - len(text[line_start:line_end].lstrip(" \t\f"))
        indented = text[line_start : line_start + 1] in (" ", "\t")
        if indented and not 0 <= comment < start:
            if text[first : first + 1] == "@" or _AFTER_INDENTED.match(after):
                return True
    return False


def may_hold_findings_of_project(text: str, keywords: tuple[str, ...] = ()) -> bool:
    """Whether the file can hold any finding once its project is considered: a
    static use, a class that a static use elsewhere names, or a call of a
    function transformed in another module (which it must import)."""
    return may_have_findings(text, keywords) or "class" in text or "import" in text
