"""Every case file in `cases/<CODE>/` is linted exactly at its markers, in both profiles.

A case file is a small, complete program about rule CODE (jaxcheck only reads
it): the lines a finding is expected on end with `# expect: CODE` (both
profiles) or `# strict: CODE` (the strict profile alone); a file with no
marker is correct code CODE must not flag. `codes_at` runs each file alone
(as flake8 checks standard input) and as a module of a project on disk (as the
CLI and flake8 check files), requires the two to agree, and requires the file
to reach the analysis, so a silent case shows the rule saw the code.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from pathlib import Path

import pytest

from helpers import MARKER, codes_at, expected_at
from jaxcheck.rules import CODES

CASES = Path(__file__).resolve().parent / "cases"
FILES = sorted(CASES.glob("*/*.py"))
PROFILES = ("default", "strict")


def case_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@functools.lru_cache(maxsize=None)
def found(path: Path, profile: str) -> frozenset[tuple[int, str]]:
    return frozenset(codes_at(path.read_text(encoding="utf-8"), profile))


def test_there_are_cases_for_every_rule():
    # JAX000 and JAX001 are about files and comments: tests/test_bad_input.py and tests/test_adoption.py.
    assert {path.parent.name for path in FILES} == set(CODES) - {"JAX000", "JAX001"}
    assert {folder.name for folder in CASES.iterdir()} <= set(CODES), "a case folder is named after a rule"


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("path", FILES, ids=case_id)
def test_linted_exactly_at_the_markers(path: Path, profile: str):
    assert found(path, profile) == expected_at(path.read_text(encoding="utf-8"), profile)


@pytest.mark.parametrize("path", FILES, ids=case_id)
def test_the_default_profile_flags_a_subset_of_what_the_strict_one_flags(path: Path):
    assert found(path, "default") <= found(path, "strict")


@pytest.mark.parametrize("path", FILES, ids=case_id)
def test_a_case_says_what_it_shows_and_marks_only_known_codes(path: Path):
    text = path.read_text(encoding="utf-8")
    first = text.partition("\n")[0]
    assert first.startswith(("# ", '"""')) and len(first) > 20, "the first line says what the case shows, and why"
    # pytest would collect such a file as a test module.
    assert not path.stem.startswith("test_") and not path.stem.endswith("_test")
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    for comment in (token.string for token in tokens if token.type == tokenize.COMMENT):
        assert MARKER.search(comment) or not re.search(r"\b(expect|strict):", comment), f"misspelt marker: {comment}"
    marked = {code for _, code in expected_at(text, "strict")}
    assert marked <= set(CODES), f"unknown codes: {sorted(marked - set(CODES))}"
