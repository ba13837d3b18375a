"""Messages in two parts, as ruff writes them: a short message (what is wrong,
where the value became static, what JAX does then) and a fix title (what to
write instead), with the places the finding is about as related locations, so
that an editor shows them where they were written. The why is the rule page's.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from helpers import model_findings, write
from jaxcheck.extraction import facts_from_source
from jaxcheck.config import find_config
from jaxcheck.engine import check
from jaxcheck.findings import BAD_INPUT, Related
from jaxcheck.report.formats import message_of

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.fixture(scope="module")
def fixture_findings():
    result = check([str(FIXTURES)], lambda path: find_config(str(FIXTURES)), jobs=1, use_cache=False)
    return [finding for finding in result.findings if finding.code != BAD_INPUT]


def test_every_finding_of_a_rule_has_a_short_message_and_a_fix(fixture_findings):
    assert len(fixture_findings) > 100
    for finding in fixture_findings:
        assert finding.fix, finding
        assert finding.fix not in finding.message, finding
        assert not finding.message.endswith("."), finding.message
        assert not finding.fix.endswith("."), finding.fix
        assert message_of(finding) == f"{finding.message}. {finding.fix}. [{message_of(finding).rpartition('[')[2]}"
    # Before the split, the one-line messages had a median of 539 characters, the fix and the why included.
    assert statistics.median(len(finding.message) for finding in fixture_findings) < 300


def test_a_place_in_the_reported_file_is_named_by_its_line(fixture_findings):
    for finding in fixture_findings:
        assert f"{Path(finding.path).relative_to(FIXTURES.parent)}:" not in finding.message, finding.message


def test_class_findings_carry_the_static_use_and_the_change_as_related_locations(fixture_findings):
    (finding,) = [
        finding for finding in fixture_findings
        if finding.path.endswith("JAX101/fail_checkpoint_static_argnums.py") and finding.code == "JAX101"
    ]
    path = finding.path
    assert finding.related == (
        Related(path, 36, 32, "static argument `cfg` of `layer`"),
        Related(path, 37, 5, "`cfg.scale = ...` changes it"),
        Related(path, 38, 33, "static argument `cfg` of `layer`"),
    )
    assert "at line 36" in finding.message and "at line 37" in finding.message


SETTINGS = """\
class Settings:
    def __init__(self, steps):
        self.steps = steps
"""

INTEGRATE = """\
from functools import partial

import jax

from pkg.settings import Settings


@partial(jax.jit, static_argnums=1)
def run(x, settings):
    return x * settings.steps


settings = Settings(2)
run(1.0, settings)
settings.steps = 3
run(1.0, settings)
"""


def test_a_static_use_in_another_file_is_named_by_its_path_and_related_there(tmp_path: Path, monkeypatch):
    write(tmp_path, "pyproject.toml", '[project]\nname = "demo"\nversion = "0"\n')
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/settings.py", SETTINGS)
    write(tmp_path, "pkg/integrate.py", INTEGRATE)
    monkeypatch.chdir(tmp_path)
    result = check(["pkg"], lambda path: find_config(path), jobs=1, use_cache=False)
    (finding,) = [finding for finding in result.findings if finding.code == "JAX101"]
    assert (finding.path, finding.line) == ("pkg/settings.py", 1)
    assert "pkg/integrate.py:14" in finding.message and "pkg/integrate.py:15" in finding.message
    assert finding.related == (
        Related("pkg/integrate.py", 14, 10, "static argument `settings` of `run`"),
        Related("pkg/integrate.py", 15, 1, "`settings.steps = ...` changes it"),
        Related("pkg/integrate.py", 16, 10, "static argument `settings` of `run`"),
    )


def test_a_global_changed_after_the_call_relates_the_call_that_traced_it():
    src = (
        "import jax\n\nSCALE = 2.0\n\n\n@jax.jit\ndef scaled(x):\n    return x * SCALE\n\n\n"
        "scaled(1.0)\nSCALE = 3.0\n"
    )
    (finding,) = model_findings([facts_from_source(src, "demo.py", "demo", False)], "default")
    assert (finding.code, finding.line) == ("JAX204", 12)
    assert finding.related == (Related("demo.py", 11, 1, "`scaled` is called (traced) here"),)
    assert finding.fix == "Pass `SCALE` (or what is read of it) as an argument of the jitted function"


def test_every_unhashable_kind_the_model_knows_has_a_fix():
    # A library object added to the model's table without advice would crash JAX106 (KeyError) on first use.
    from jaxcheck.model.jax_api import CONTAINER_TYPES, LIBRARY_UNHASHABLE, LIBRARY_UNHASHABLE_RESULTS
    from jaxcheck.rules.static_args import _INSTEAD

    kinds = {*LIBRARY_UNHASHABLE.values(), *LIBRARY_UNHASHABLE_RESULTS.values(), *CONTAINER_TYPES.values(), "array"}
    assert kinds - set(_INSTEAD) == set()
