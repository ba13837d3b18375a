"""The rule reference pages, rendered from the rule classes (SPEC 3).

A page is its class's docstring, in ruff's sections, under a `# CODE name`
title. Two parts are generated, so that no page repeats them by hand: the
profiles every rule's "Options" starts with, and the JAX releases its facts
were checked on. `jaxcheck rule CODE` and the SARIF help print pages; the
copies in `rules/` and the README's rule table are written by
`python -m jaxcheck.report.pages`, and `tests/test_rule_pages.py` fails when
they drift.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

from jaxcheck.rules import CODES, DOCUMENTED
from jaxcheck.rules.checked_on import checked_on

SECTIONS = (
    "What it does",
    "Why is this bad?",
    "Example",
    "Use instead",
    "Fix",
    "Options",
    "Known problems",
    "JAX versions checked",
    "References",
)
# Generated from the rule's facts; a docstring may add a note of its own.
OPTIONAL_IN_DOCSTRING = frozenset({"JAX versions checked"})
REGENERATE = "python -m jaxcheck.report.pages"
TABLE_START, TABLE_END = "<!-- rules:start -->", "<!-- rules:end -->"

PROFILES = """\
Two profiles choose what is reported: `profile = "default"` or
`profile = "strict"` in `[tool.jaxcheck]`, `--profile` on the command line,
`--jaxcheck-profile` for flake8. The default profile reports only what
shows evidence that JAX will go wrong: a stale result, a compilation storm,
or a JAX error. `strict` enforces the TORAX design standard as written.
`select`, `ignore` and `per-file-ignores` in `[tool.jaxcheck]` (`--select`
and `--ignore` on the command line) choose the codes."""

_BY_CODE = {documented.code: documented for documented in DOCUMENTED}
_HEADING = re.compile(r"^## (.+)$")


def docstring_sections(documented: type) -> tuple[str, list[tuple[str, str]]]:
    """A class docstring as (its first paragraph, [(heading, text), ...] in its order).

    Headings are `## ` lines outside fenced code blocks.
    """
    intro: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    fenced = False
    for line in inspect.cleandoc(documented.__doc__ or "").split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading:
            sections.append((heading.group(1), []))
        else:
            (sections[-1][1] if sections else intro).append(line)
    return "\n".join(intro).strip(), [(heading, "\n".join(lines).strip()) for heading, lines in sections]


def rule_page(code: str) -> str | None:
    """The page of a code, in markdown; None for an unknown code."""
    documented = _BY_CODE.get(code)
    if documented is None:
        return None
    intro, sections = docstring_sections(documented)
    if documented.__doc__ is None:  # `python -OO` strips docstrings
        intro = f"The text of this page is the rule's docstring, which `python -OO` removes: run jaxcheck without `-OO`, or read `rules/{code}.md`."
    text = dict(sections)
    text["Options"] = "\n\n".join(part for part in (PROFILES, text.get("Options", "")) if part)
    generated = checked_on(code, documented.facts)
    text["JAX versions checked"] = "\n\n".join(
        part for part in (generated, text.get("JAX versions checked", "")) if part
    )
    parts = [f"# {code} {documented.name}", intro]
    parts += [f"## {heading}\n\n{text[heading]}" for heading in SECTIONS if text.get(heading)]
    return "\n\n".join(parts) + "\n"


def rule_table() -> str:
    """The README's table of codes: each links to its page."""
    rows = ["| code | name | flags |", "|---|---|---|"]
    rows += [f"| [{code}](rules/{code}.md) | {name} | {summary} |" for code, (name, summary) in CODES.items()]
    return "\n".join(rows)


def with_rule_table(readme: str) -> str:
    """The README with the table between its markers replaced."""
    start, end = readme.index(TABLE_START) + len(TABLE_START), readme.index(TABLE_END)
    return f"{readme[:start]}\n{rule_table()}\n{readme[end:]}"


def write_pages(root: Path) -> list[Path]:
    """Write `rules/CODE.md` for every code and the README's rule table under
    `root` (a checkout); the files that changed."""
    written = {root / "rules" / f"{code}.md": rule_page(code) for code in CODES}
    readme = root / "README.md"
    written[readme] = with_rule_table(readme.read_text(encoding="utf-8"))
    changed = []
    for path, text in written.items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":
    checkout = Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd()
    for path in write_pages(checkout):
        print(f"wrote {path}")
