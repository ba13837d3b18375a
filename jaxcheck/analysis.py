"""What the rules read: the index and what is derived from it, each computed once."""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property

from jaxcheck.index import Index
from jaxcheck.static_safety import StaticSafety
from jaxcheck.static_uses import StaticUse, find_static_uses


class Analysis:
    """The index plus the static uses and class judgements the rules share."""

    def __init__(self, index: Index) -> None:
        self.index = index

    @cached_property
    def static_uses(self) -> tuple[StaticUse, ...]:
        return find_static_uses(self.index)

    @cached_property
    def static_uses_by_class(self) -> dict[str, list[StaticUse]]:
        grouped: dict[str, list[StaticUse]] = defaultdict(list)
        for use in sorted(self.static_uses, key=lambda use: (use.path, use.location)):
            if use.class_qualname:
                grouped[use.class_qualname].append(use)
        return grouped

    @cached_property
    def safety(self) -> StaticSafety:
        return StaticSafety(self.index)

    def judge_everything(self) -> None:
        """Ask every question the rules will ask, so that `index.missing` is complete."""
        for qualname in self.static_uses_by_class:
            self.safety.traits(qualname)

    def classes_in(self, path: str):
        """The classes defined in `path` that reach a static position, with their uses."""
        module = self.index.modules[path]
        for cls in module.classes:
            uses = self.static_uses_by_class.get(cls.qualname)
            if uses:
                yield cls, uses
