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

from jaxcheck import facts as f
from jaxcheck.model.project import Analysis
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

    def check(self, module: f.ModuleFacts, analysis: Analysis):
        aux, static = analysis.pytree_hazards
        reported = set()
        if self.in_aux:
            for element, held in aux:
                if element.path == module.path and held.kind == self.kind and element.value.location not in reported:
                    reported.add(element.value.location)
                    yield self.finding(
                        module.path,
                        element.value.location,
                        f"the `aux_data` returned by {element.flatten} holds {held.what}{_given(held)}: "
                        f"{_WHY[self.kind]}. {_FIX[self.kind]}",
                    )
        if self.in_static_fields:
            for field, held in static:
                if field.path == module.path and held.kind == self.kind and field.location not in reported:
                    reported.add(field.location)
                    name = field.cls.rpartition(".")[2]
                    yield self.finding(
                        module.path,
                        field.location,
                        f"`{name}.{field.name}` is a static field ({field.how}), part of the tree's structure, "
                        f"and holds {held.what}{_given(held)}: {_WHY[self.kind]}. {_FIX[self.kind]}",
                    )


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
