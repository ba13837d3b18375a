"""Every call of the project, found by what it calls.

Most questions about calls name a few callees (`register_pytree_node`, the
jitted functions, the constructors of one class), and a monorepo makes tens
of thousands of calls: a pass over all of them for each question is what an
edit in one file paid for the whole project. The calls are indexed once, and
each question reads only the calls that can answer it, in the order a pass
over every module would have met them (modules in order, each module's calls
in its own), so what is found, and in which order, is the same.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Callable, Iterable

from jaxcheck import facts as f

# (file, enclosing function or "" at module level, the call)
Call = tuple[str, str, f.Value]


class Calls:
    """The project's calls, by the callee's dotted name, last name and resolved name."""

    def __init__(self, modules: dict[str, f.ModuleFacts], canonical: Callable[[f.Ref], f.Ref]) -> None:
        # `canonical` is not kept: a model that refers to itself is garbage only the cyclic collector
        # frees, and that walks everything alive once the run has dropped the model.
        self.all: list[Call] = []
        self._by_dotted: dict[str, list[int]] = defaultdict(list)  # `call.dotted` -> positions in `all`
        self._by_last: dict[str, list[int]] = defaultdict(list)  # the callee's last name -> positions
        self._by_callee: dict[str, list[int]] = defaultdict(list)  # a global callee, re-exports followed -> positions
        self._applied: list[int] = []  # calls of what a call returns: `jit(f, static_argnums=0)(x)`
        self._by_scope: dict[str, list[f.Ref]] = defaultdict(list)  # a function -> the callees of the calls it makes
        # A plain global's name -> the lists its calls go in (by dotted name, last name, what it resolves to):
        # most calls name one again and again, so it is resolved, and its lists found, once.
        lists: dict[str, tuple[list[int], list[int], list[int]]] = {}
        by_dotted, by_last, by_callee, by_scope = self._by_dotted, self._by_last, self._by_callee, self._by_scope
        add, applied = self.all.append, self._applied.append
        # The callee of every call that names one, each once, in the order first called: a plain
        # global's entered as its name is first met, where hashing a `Ref` would cost most.
        distinct: dict[f.Ref, None] = {}
        position = -1
        for path, module in modules.items():
            for enclosing, call in module.calls:
                position += 1
                add((path, enclosing, call))
                ref = call.ref
                if ref is None:
                    by_dotted[""].append(position)
                elif ref.function or ref.attributes:
                    distinct[ref] = None
                    by_dotted[call.dotted].append(position)
                    by_last[ref.last].append(position)
                    if not ref.function:
                        by_callee[canonical(ref).name].append(position)
                else:
                    found = lists.get(ref.name)
                    if found is None:
                        found = lists[ref.name] = (by_dotted[ref.name], by_last[ref.last], by_callee[canonical(ref).name])
                        distinct[ref] = None
                    found[0].append(position)
                    found[1].append(position)
                    found[2].append(position)
                if ref is not None and enclosing:
                    by_scope[enclosing].append(ref)
                if call.func is not None:
                    applied(position)
        self.callees: tuple[f.Ref, ...] = tuple(distinct)  # a tenth as many as the calls

    def made_in(self, function: str) -> list[f.Ref]:
        """The callees of the calls made in `function` (in any file), in order."""
        return self._by_scope.get(function, [])

    def where(
        self,
        named: Callable[[str], object] | None = None,
        last: Iterable[str] = (),
        callees: Iterable[str] = (),
        applied: bool = False,
        last_named: Callable[[str], object] | None = None,
    ) -> list[Call]:
        """The calls whose dotted name (`Value.dotted`, "" for none) passes
        `named`, or whose callee's last name is one of `last` or passes
        `last_named`, or whose global callee resolves to one of `callees`, or
        (`applied`) that call what a call returns, in project order."""
        positions: set[int] = set()
        if named is not None:
            for name, found in self._by_dotted.items():
                if named(name):
                    positions.update(found)
        if last_named is not None:
            for name, found in self._by_last.items():
                if last_named(name):
                    positions.update(found)
        for name in last:
            positions.update(self._by_last.get(name, ()))
        for name in callees:
            positions.update(self._by_callee.get(name, ()))
        if applied:
            positions.update(self._applied)
        return [self.all[position] for position in sorted(positions)]


def by_path(calls: list[Call]) -> dict[str, list[Call]]:
    """The calls grouped by file, each group in order."""
    found: dict[str, list[Call]] = defaultdict(list)
    for call in calls:
        found[call[0]].append(call)
    return found
