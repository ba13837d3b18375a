"""What a method reads of its object, and which of that can change once the object is built.

A function traced once bakes in every attribute it read; it goes stale when
one of them is later assigned. `self.helper()` calls and properties of the
same class are followed, so a method reading its state through a helper
counts as reading it.
"""

from __future__ import annotations

from jaxcheck import facts as f
from jaxcheck.model.project import Analysis


def state_reads(analysis: Analysis, cls: str, method: f.FunctionFacts) -> set[str]:
    """The attributes `method` reads on `self`, through its helpers on the same class."""
    reads: set[str] = set()
    pending, seen = [method], {method.qualname}
    while pending:
        function = pending.pop()
        if not function.is_instance_method:
            continue
        use = function.parameter_use(function.parameters[0].name)
        for attribute in use.attributes if use else ():
            reads.update(_through_helpers(analysis, cls, attribute, pending, seen))
    return reads


def attribute_reads(analysis: Analysis, cls: str, attributes) -> set[str]:
    """Attributes read on an object (`self.scale`, `self.helper(...)`), helpers followed."""
    reads: set[str] = set()
    pending: list[f.FunctionFacts] = []
    seen: set[str] = set()
    for attribute in attributes:
        reads.update(_through_helpers(analysis, cls, attribute, pending, seen))
    for method in pending:
        reads.update(state_reads(analysis, cls, method))
    return reads


def _through_helpers(analysis: Analysis, cls: str, attribute: str, pending: list, seen: set[str]) -> tuple[str, ...]:
    helper = analysis.index.find_method(cls, attribute)
    if helper is None:
        return (attribute,)
    if helper.qualname not in seen:
        seen.add(helper.qualname)
        pending.append(helper)
    return ()


def changes(
    analysis: Analysis, cls: str, reads: set[str], made_at: tuple[str, str, f.Location] | None = None
) -> list[tuple[f.AttributeWrite, str]]:
    """The writes after construction to attributes in `reads`, as (write, path).

    `made_at` is (path, function, location) of the transform: a write from
    outside the class earlier in the same function or module body happens
    before the function is made, and cannot make it stale.
    """
    found = []
    for write, path, inside in analysis.mutations(cls):
        if write.attribute not in reads and write.attribute != "*":
            continue
        if made_at is not None and not inside:
            where, function, location = made_at
            if path == where and write.function == function and write.location < location:
                continue
        found.append((write, path))
    return sorted(found, key=lambda item: (item[1], item[0].location))
