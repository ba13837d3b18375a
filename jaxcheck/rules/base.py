"""What every rule is: a code, a name, a summary, and a check over the project's model."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar, Iterable

from jaxcheck import facts as f
from jaxcheck.findings import Finding, Related, place_named
from jaxcheck.model.classes import Traits
from jaxcheck.model.jax_versions import RECOMPILES, STALE, Target, releases_with
from jaxcheck.model.project import Model
from jaxcheck.model.state import Change
from jaxcheck.model.static_uses import CALL_SITE, FIELD, SELF, StaticUse

# Related locations a finding carries at most: an editor lists each one.
_RELATED = 8


class Rule:
    """One code. `check` reads the model of the whole project, never a syntax tree.

    A finding is `strict_only` when the code breaks the design standard but
    gives no evidence that JAX will go wrong: the strict profile reports it,
    the default one does not.

    A rule's own docstring is its reference page, in markdown, with the
    sections `jaxcheck.report.pages.SECTIONS` lists.
    """

    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, as in `rules/CODE.md`
    summary: ClassVar[str]  # one line, for `jaxcheck rules`
    facts: ClassVar[tuple[str, ...]] = ()  # keys of `jax_versions.FACTS`: its page says where they were checked
    # Follows values through the calls of the whole project: the slowest, run
    # first, so that the files of its findings are confirmed while the others run.
    whole_program: ClassVar[bool] = False

    def check(self, model: Model) -> Iterable[Finding]:
        raise NotImplementedError

    def finding(
        self,
        path: str,
        location: f.Location,
        message: str,
        fix: str,
        related: tuple[Related, ...] = (),
        evidence: bool = True,
        raises: bool = False,
    ) -> Finding:
        """`message` says what is wrong and where it became static (the places it
        names written by `place_named`), `fix` what to write instead; the why is
        the rule's page."""
        return Finding.of(
            path, location.line, location.column, self.code, message, strict_only=not evidence, fix=fix, raises=raises,
            related=tuple(sorted({item for item in related if (item.path, item.line) != (path, location.line)}))[:_RELATED],
        )


def describe_use(use: StaticUse, model: Model) -> str:
    """Where and how a value becomes static, for a message: names the file and line."""
    name = model.symbols.short_name(use.function)
    where = place_named(use.path, use.location.line, use.location.column)
    if use.via == SELF:
        return f"`self` of `{name}` is static under `{use.spec.transform.name}` ({where})"
    if use.via == CALL_SITE and use.leaf_of:
        held = f"its bound method `.{use.method}`" if use.method else "it"
        return (
            f"{held} is held in `{use.parameter}`, a static leaf of the `{use.leaf_of.rpartition('.')[2]}` passed to "
            f"`{name}` under `{use.spec.transform.name}` at {where}"
        )
    if use.via == CALL_SITE and use.method:
        return f"its bound method `.{use.method}` is passed as static argument `{use.parameter}` of `{name}` at {where}"
    if use.via == CALL_SITE and use.element:
        return f"it is an element of static argument `{use.parameter}` of `{name}` at {where}"
    if use.via == CALL_SITE:
        return f"it is passed as static argument `{use.parameter}` of `{name}` at {where}"
    if use.via == FIELD:
        holder = use.holder.rpartition(".")[2]
        return f"field `{holder}.{use.parameter}` holds it ({where}) and {describe_use(use.outer, model)}"
    return f"static argument `{use.parameter}` of `{name}` is annotated with it ({where})"


def use_note(use: StaticUse, model: Model) -> str:
    """What happens at a static use, for a related location: a few words."""
    name = model.symbols.short_name(use.function)
    if use.via == SELF:
        return f"`self` of `{name}` is static under `{use.spec.transform.name}`"
    if use.via == CALL_SITE and use.leaf_of:
        return f"a static leaf of the `{use.leaf_of.rpartition('.')[2]}` passed to `{name}`"
    if use.via == CALL_SITE:
        return f"static argument `{use.parameter}` of `{name}`"
    if use.via == FIELD:
        return f"held in the static field `{use.holder.rpartition('.')[2]}.{use.parameter}`"
    return f"the annotation of static argument `{use.parameter}` of `{name}`"


def related_uses(uses: list[StaticUse], model: Model) -> tuple[Related, ...]:
    """Where the value became static: each use, and for a held object the uses of what holds it."""
    found: dict[tuple[str, int, int], str] = {}
    for use in uses:
        while use is not None:
            found.setdefault((use.path, use.location.line, use.location.column), use_note(use, model))
            use = use.outer
    return tuple(Related(path, line, column, note) for (path, line, column), note in sorted(found.items()))


def related_change(change: Change) -> Related:
    """Where a static object changes after it became static."""
    note = f"a user's `{change.text}`" if change.invited else f"`{change.text}` changes it"
    return Related(change.file, change.location.line, change.location.column, note)


def after_key_change(consequences: tuple[str, ...], target: Target, old: str) -> str:
    """What the next call does once a static key changed (`consequences`, as
    `jax_versions.outcomes` gives them for the project's target), naming the
    releases when the target spans eras that differ."""
    stale = f"the next call silently reuses the function compiled for the old {old}"
    if consequences == (STALE,):
        return stale
    if consequences == (RECOMPILES,):
        return (
            "the next call compiles again, and so does every change "
            f"({releases_with('changed-value-key', STALE)}: a stale result instead)"
        )
    return (
        f"{stale} on {releases_with('changed-value-key', STALE, target)}, and compiles again on "
        f"{releases_with('changed-value-key', RECOMPILES, target)} (jax {target.describe()} admits both)"
    )


def uses_text(uses: list[StaticUse], model: Model) -> str:
    """The first use, and how many more there are."""
    text = describe_use(uses[0], model)
    others = len({(use.path, use.location) for use in uses}) - 1
    return text + (f" (and {others} more static use{'s' if others > 1 else ''})" if others > 0 else "")


def about_uses(findings: Iterable[Finding], uses: list[StaticUse]) -> Iterable[Finding]:
    """The findings, each marked with the files of the static uses that make it one."""
    files = tuple(sorted({use.outermost.path for use in uses} | {use.path for use in uses}))
    for finding in findings:
        yield replace(finding, about=files)


class ClassRule(Rule):
    """A rule that judges the project's classes that reach a static position."""

    def check(self, model: Model):
        for qualname, uses in model.static_uses_by_class.items():
            traits = model.classes.traits(qualname)
            if traits is not None:
                cls = model.symbols.classes[qualname]
                yield from about_uses(self.judge(model.symbols.path_of[qualname], cls, traits, uses, model), uses)

    def judge(self, path: str, cls: f.ClassFacts, traits: Traits, uses: list[StaticUse], model: Model):
        raise NotImplementedError
