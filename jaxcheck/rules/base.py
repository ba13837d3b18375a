"""What every rule is: a code, a name, a summary, and a check over facts."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar, Iterable

from jaxcheck import facts as f
from jaxcheck.model.project import Analysis
from jaxcheck.facts import Location, ModuleFacts
from jaxcheck.findings import Finding
from jaxcheck.model.classes import Traits
from jaxcheck.model.static_uses import CALL_SITE, FIELD, SELF, StaticUse


class Rule:
    """One code. `check` reads a module's facts and the shared analysis, never the tree."""

    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, as in `rules/CODE.md`
    summary: ClassVar[str]  # one line, for `jaxcheck rules`
    facts: ClassVar[tuple[str, ...]] = ()  # keys of `jax_versions.FACTS`: its page says where they were checked

    def check(self, module: ModuleFacts, analysis: Analysis) -> Iterable[Finding]:
        raise NotImplementedError

    def finding(self, path: str, location: Location, message: str) -> Finding:
        return Finding(path, location.line, location.column, self.code, message)


def short_name(qualname: str, analysis: Analysis) -> str:
    """A function's qualname without its module: `Vehicle.wheels`."""
    module = analysis.index.modules[analysis.index.path_of[qualname]].module
    return qualname[len(module) + 1 :] if qualname.startswith(module + ".") else qualname


def describe_use(use: StaticUse, analysis: Analysis) -> str:
    """Where and how a value becomes static, for a message: names the file and line."""
    name = short_name(use.function, analysis)
    where = f"{use.path}:{use.location.line}"
    if use.via == SELF:
        return f"`self` of `{name}` is static under `{use.spec.transform.name}` ({where})"
    if use.via == CALL_SITE:
        return f"it is passed as static argument `{use.parameter}` of `{name}` at {where}"
    if use.via == FIELD:
        holder = use.holder.rpartition(".")[2]
        return f"field `{holder}.{use.parameter}` holds it ({where}) and {describe_use(use.outer, analysis)}"
    return f"static argument `{use.parameter}` of `{name}` is annotated with it ({where})"


def uses_text(uses: list[StaticUse], analysis: Analysis) -> str:
    """The first use, and how many more there are."""
    text = describe_use(uses[0], analysis)
    others = len({(use.path, use.location) for use in uses}) - 1
    return text + (f" (and {others} more static use{'s' if others > 1 else ''})" if others > 0 else "")


def about_uses(findings: Iterable[Finding], uses: list[StaticUse]) -> Iterable[Finding]:
    """The findings, each marked with the files of the static uses that make it one."""
    files = tuple(sorted({use.path for use in uses}))
    for finding in findings:
        yield replace(finding, about=files)


class ClassRule(Rule):
    """A rule that judges the classes defined in a module that reach a static position."""

    def check(self, module: f.ModuleFacts, analysis: Analysis):
        for cls, uses in analysis.classes_in(module.path):
            traits = analysis.safety.traits(cls.qualname)
            if traits is not None:
                yield from about_uses(self.judge(module, cls, traits, uses, analysis), uses)

    def judge(self, module, cls: f.ClassFacts, traits: Traits, uses: list[StaticUse], analysis: Analysis):
        raise NotImplementedError
