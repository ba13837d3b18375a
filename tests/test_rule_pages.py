"""The rule pages and the README's rule table are generated from the rule
classes: the copies in the repository must be what the classes render."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxcheck.report.pages import (
    OPTIONAL_IN_DOCSTRING,
    REGENERATE,
    SECTIONS,
    TABLE_END,
    TABLE_START,
    docstring_sections,
    rule_page,
    rule_table,
)
from jaxcheck.rules import CODES, DOCUMENTED, RULES

ROOT = Path(__file__).resolve().parent.parent
STALE = f"out of date with the rule classes: run `{REGENERATE}` in the checkout"


@pytest.mark.parametrize("code", list(CODES))
def test_each_page_in_rules_is_the_rendered_one(code: str) -> None:
    page = ROOT / "rules" / f"{code}.md"
    assert page.is_file(), f"rules/{code}.md is missing: run `{REGENERATE}`"
    assert page.read_text(encoding="utf-8") == rule_page(code), f"rules/{code}.md is {STALE}"


def test_rules_holds_a_page_for_each_code_and_nothing_else() -> None:
    assert sorted(page.stem for page in (ROOT / "rules").glob("*.md")) == sorted(CODES)


def test_the_readme_table_is_the_generated_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count(TABLE_START) == 1 and readme.count(TABLE_END) == 1, "the README lost its table markers"
    table = readme.partition(TABLE_START)[2].partition(TABLE_END)[0].strip()
    assert table == rule_table(), f"the README's rule table is {STALE}"


def test_the_documented_codes_are_jax000_jax001_and_the_rules_that_run() -> None:
    assert [documented.code for documented in DOCUMENTED] == ["JAX000", "JAX001", *(rule.code for rule in RULES)]
    assert not set(DOCUMENTED[:2]) & set(RULES)


@pytest.mark.parametrize("documented", DOCUMENTED, ids=lambda documented: documented.code)
def test_each_docstring_has_the_sections_in_order(documented: type) -> None:
    intro, sections = docstring_sections(documented)
    assert intro and not intro.startswith("#"), f"{documented.code}: the docstring starts with its description"
    headings = [heading for heading, _ in sections]
    expected = [heading for heading in SECTIONS if heading not in OPTIONAL_IN_DOCSTRING or heading in headings]
    assert headings == expected, f"{documented.code}: sections {headings}, expected {expected}"
    assert all(text for _, text in sections), f"{documented.code}: an empty section"


@pytest.mark.parametrize("code", list(CODES))
def test_each_page_has_every_section_in_order(code: str) -> None:
    page = rule_page(code)
    headings = [line[3:] for line in page.splitlines() if line.startswith("## ")]
    assert headings == list(SECTIONS), code
    assert page.startswith(f"# {code} {CODES[code][0]}\n\n")


@pytest.mark.parametrize("code", list(CODES))
def test_each_page_states_the_profiles(code: str) -> None:
    options = rule_page(code).partition("## Options\n")[2].partition("\n## ")[0]
    for spelling in ('profile = "strict"', "--profile", "--jaxcheck-profile"):
        assert spelling in options, (code, spelling)
    # Beyond the shared paragraph, what this rule needs under each profile.
    assert options.count(code) >= 1, code


def test_an_unknown_code_has_no_page() -> None:
    assert rule_page("JAX999") is None
