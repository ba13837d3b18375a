"""The generated monorepo of `bench/speed.py` measures what it claims to.

The one-file-edit row is only worth its figure if the monorepo is code
jaxcheck reads in full (every file checked, none refused), with the planted
bugs found and nothing else, and if `edit` changes what jaxcheck knows of a
module, not just its bytes. A small monorepo (two packages) shows all of it.
"""

from __future__ import annotations

import importlib.util
import os

import pytest

from jaxcheck.config import find_config
from jaxcheck.engine import check
from jaxcheck.extraction import facts_from_source

_BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench", "monorepo.py")


@pytest.fixture(scope="module")
def monorepo():
    spec = importlib.util.spec_from_file_location("monorepo", _BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def test_the_monorepo_is_one_project_of_the_files_asked_for_written_alike_twice(monorepo, tmp_path):
    first = monorepo.make_monorepo(str(tmp_path / "a"), files=212)
    second = monorepo.make_monorepo(str(tmp_path / "b"), files=212)
    assert len(first) == 212
    assert os.path.isfile(tmp_path / "a" / "pyproject.toml")
    assert [_read(path) for path in first] == [_read(path) for path in second]
    texts = [_read(path) for path in first]
    jax_modules = sum("import jax" in text for text in texts)
    assert 0.15 < jax_modules / len(texts) < 0.25
    assert all(text.count("\n") < 70 for text in texts)


def test_jaxcheck_reads_every_file_and_finds_only_the_planted_bugs(monorepo, tmp_path):
    written = monorepo.make_monorepo(str(tmp_path), files=212)
    result = check([str(tmp_path)], find_config, jobs=1, use_cache=False)
    assert result.files == len(written)
    assert result.internal_errors == 0 and not result.skipped
    buggy = os.path.join("pkg_000", f"mod_{monorepo.BUG_MODULE:03d}.py")
    assert {(finding.path.endswith(buggy), finding.code) for finding in result.findings} == {
        (True, "JAX101"),
        (True, "JAX102"),
        (True, "JAX106"),
    }


@pytest.mark.parametrize("module", ["EDITED_MODULE", "JAX_EDITED_MODULE"])
def test_an_edit_changes_the_facts_of_the_module_it_edits(monorepo, tmp_path, module):
    monorepo.make_monorepo(str(tmp_path), files=112)
    path = os.path.join(str(tmp_path), getattr(monorepo, module))
    name = getattr(monorepo, module)[: -len(".py")].replace(os.sep, ".")
    facts = [facts_from_source(_read(path), path, name)]
    for _ in range(2):
        assert monorepo.edit(str(tmp_path), getattr(monorepo, module)) == path
        facts.append(facts_from_source(_read(path), path, name))
    assert facts[0] != facts[1] != facts[2]


def test_of_the_two_edited_modules_only_the_jax_one_takes_part(monorepo, tmp_path):
    """The two edit rows measure what they say: an edit the findings do not
    rest on, and one of a file the project is judged again for."""
    monorepo.make_monorepo(str(tmp_path), files=112)
    result = check([str(tmp_path)], find_config, jobs=1, use_cache=False)
    assert os.path.join(str(tmp_path), monorepo.JAX_EDITED_MODULE) in result.analysed
    assert os.path.join(str(tmp_path), monorepo.EDITED_MODULE) not in result.analysed
