"""What every rule is: a code, a name, a summary, and a check over facts."""

from __future__ import annotations

from typing import ClassVar, Iterable

from jaxcheck.analysis import Analysis
from jaxcheck.facts import Location, ModuleFacts
from jaxcheck.findings import Finding


class Rule:
    """One code. `check` reads a module's facts and the shared analysis, never the tree."""

    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, as in `rules/CODE.md`
    summary: ClassVar[str]  # one line, for `jaxcheck rules`

    def check(self, module: ModuleFacts, analysis: Analysis) -> Iterable[Finding]:
        raise NotImplementedError

    def finding(self, path: str, location: Location, message: str) -> Finding:
        return Finding(path, location.line, location.column, self.code, message)
