"""JAX3xx: what pytrees keep in their structure (SPEC 3).

`aux_data` and static fields are part of the treedef, and the treedef is part
of every jit cache key: compared with `==` on each call, and kept by
reference in the cache. An array there is traced (jnp) or cannot be compared
(numpy); a list changed in place changes the cached key with it, so the stale
function is found again; a lambda, bound method or fresh identity-hashed
object is unequal to the last one, so every call retraces.
"""

from __future__ import annotations

from typing import ClassVar

from jaxcheck.model.evidence import real_change
from jaxcheck.model.project import Model
from jaxcheck.model.values import ARRAY, MUTABLE, UNSTABLE, Held
from jaxcheck.rules.base import Rule

_WHY = {
    ARRAY: (
        "JAX compares the tree's structure with `==` on every call to find its compiled function, and an array "
        "cannot be part of it: a jax array there is traced and leaks out of the jit, a numpy array cannot be "
        "compared, and one changed in place changes the cached key with it, so the stale function is found again"
    ),
    MUTABLE: (
        "JAX keeps the tree's structure in its cache by reference and finds it again with `==`: changed in "
        "place, it changes the cached key with it, so the next call reuses the function compiled for the old "
        "contents (a stale result)"
    ),
    UNSTABLE: (
        "it is unequal to the one the last call saw, so JAX finds no compiled function for the tree's "
        "structure and traces and compiles again on every call"
    ),
}
_FIX = {
    ARRAY: "Return the array among the children, or keep a tuple of Python numbers there.",
    MUTABLE: "Keep an immutable value there: a tuple, a frozenset, a tuple of sorted dict items, a frozen dataclass.",
    UNSTABLE: (
        "Keep a module-level function, `Class.method`, or a value-hashed frozen dataclass there, built from "
        "hashable fields."
    ),
}


class _PytreeRule(Rule):
    """One hazard (an array, a mutable value, an unstable one) in `aux_data`, static fields, or both."""

    kind: ClassVar[str]
    in_aux: ClassVar[bool] = True
    in_static_fields: ClassVar[bool] = True

    def check(self, model: Model):
        aux, static = model.pytree_hazards
        reported = set()
        if self.in_aux:
            for element, held in aux:
                if held.kind == self.kind and (element.path, element.value.location) not in reported:
                    reported.add((element.path, element.value.location))
                    changed = _changed_in_place(model, element.cls, element.value.ref, element.subject) if held.kind == MUTABLE else ""
                    yield self.finding(
                        element.path,
                        element.value.location,
                        f"the `aux_data` returned by {element.flatten} holds {held.what}{_given(held)}{changed}: "
                        f"{_why(self.kind, changed)}. {_FIX[self.kind]}",
                        evidence=held.kind != MUTABLE or bool(changed),
                    )
        if self.in_static_fields:
            for field, held in static:
                if held.kind == self.kind and (field.path, field.location) not in reported:
                    reported.add((field.path, field.location))
                    name = field.cls.rpartition(".")[2]
                    changed = _changed_field(model, field.cls, field.name) if held.kind == MUTABLE else ""
                    yield self.finding(
                        field.path,
                        field.location,
                        f"`{name}.{field.name}` is a static field ({field.how}), part of the tree's structure, "
                        f"and holds {held.what}{_given(held)}{changed}: {_why(self.kind, changed)}. {_FIX[self.kind]}",
                        evidence=held.kind != MUTABLE or bool(changed),
                    )


def _why(kind: str, changed: str) -> str:
    if kind == MUTABLE and not changed:
        return (
            "JAX keeps the tree's structure in its cache by reference and finds it again with `==`, so a change "
            "in place (nothing here makes one) would change the cached key with it and give a stale result"
        )
    return _WHY[kind]


def _changed_in_place(model: Model, cls: str | None, ref, subject) -> str:
    """", changed in place at a.py:12" when the container an aux element reads off the object is."""
    if cls is None or ref is None or subject is None or ref.base != subject.base or len(ref.attributes) != 1:
        return ""
    return _changed_field(model, cls, ref.attributes[0])


def _changed_field(model: Model, cls: str, name: str) -> str:
    for change in model.state.changes(cls):
        if change.in_place and change.path == (name,) and real_change(model, cls, change):
            return f", changed in place by `{change.text}` at {change.file}:{change.location.line}"
    return ""


def _given(held: Held) -> str:
    return f" (given at {held.where[0]}:{held.where[1].line})" if held.where is not None else ""


class ArrayInAuxData(_PytreeRule):
    code = "JAX301"
    name = "array-in-aux-data"
    summary = "the aux_data returned by a flatten function holds an array"
    facts = ("aux-data",)
    kind = ARRAY
    in_static_fields = False


class ArrayInStaticField(_PytreeRule):
    code = "JAX302"
    name = "array-in-static-field"
    summary = "a static pytree field (eqx static, struct.field(pytree_node=False), meta_fields...) holds an array"
    facts = ("aux-data",)
    kind = ARRAY
    in_aux = False


class MutableAuxData(_PytreeRule):
    code = "JAX303"
    name = "mutable-aux-data"
    summary = "aux_data or a static field holds a list, dict, set or another mutable object"
    facts = ("aux-data",)
    kind = MUTABLE


class UnstableAuxData(_PytreeRule):
    code = "JAX304"
    name = "unstable-aux-data"
    summary = "aux_data or a static field holds a lambda, bound method or new identity-hashed object: retraces"
    facts = ("aux-data",)
    kind = UNSTABLE
