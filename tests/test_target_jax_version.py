"""Right on the JAX the project runs: the target release, where it comes from, and what it changes.

A value-hashed mutable static object changed after the first call compiles
again on every change on jax 0.4.30 to 0.8.3, is stale on 0.9.0 to 0.10.2 and
compiles again from 0.11.0 on (SPEC 1, measured on 21 releases). Messages name
the consequence that holds on the releases the project targets: set
(`target-jax-version`), declared (its requirement on jax), installed, or the
newest known.
"""

from __future__ import annotations

import json
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

from helpers import flake8_run, jaxcheck_run, model_findings, write
from jaxcheck.config import ConfigError, load_config
from jaxcheck.extraction import facts_from_source
from jaxcheck.loading.jax_target import declared_target, inferred_target
from jaxcheck.model.jax_versions import (
    FACTS,
    NEWEST,
    PROBED,
    RECOMPILES,
    STALE,
    Target,
    describe_outcomes,
    eras,
    fact,
    outcomes,
)
from jaxcheck.model.transforms import Options

# A value-hashed, mutable config, changed after the first call: JAX101 on every release.
VALUE_HASHED = textwrap.dedent(
    """\
    import dataclasses

    import jax


    @dataclasses.dataclass(unsafe_hash=True)
    class Config:
        scale: int


    @jax.jit(static_argnames="cfg")
    def step(x, cfg):
        return x * cfg.scale


    cfg = Config(2)
    step(2.0, cfg=cfg)
    cfg.scale = 3
    """
)
# The same with a class that hashes by identity: stale on every release.
IDENTITY_HASHED = VALUE_HASHED.replace("@dataclasses.dataclass(unsafe_hash=True)", "@dataclasses.dataclass(eq=False)")
STALE_TEXT = "the next call silently reuses the function compiled for the old state"
RECOMPILE_TEXT = "the next call compiles again, and so does every change (jax 0.9 to 0.10: a stale result instead)"
BOTH_TEXT = (
    "the next call silently reuses the function compiled for the old state on jax 0.9 to 0.10, "
    "and compiles again on jax < 0.9 and >= 0.11"
)


def message(src: str, target: Target, code: str = "JAX101") -> str:
    module = facts_from_source(src, "demo.py", "demo", False)
    findings = model_findings([module], "default", Options(target=target))
    found = [finding.message for finding in findings if finding.code == code]
    assert len(found) == 1, findings
    return found[0]


# --- the table ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target, expected",
    [
        (Target.release("0.4.30", ""), (RECOMPILES,)),
        (Target.release("0.4", ""), (RECOMPILES,)),  # older than any measured: the oldest era's
        (Target.release("0.8.3", ""), (RECOMPILES,)),
        (Target.release("0.9.0", ""), (STALE,)),
        (Target.release("0.9", ""), (STALE,)),
        (Target.release("0.10.2", ""), (STALE,)),
        (Target.release("0.10", ""), (STALE,)),
        (Target.release("0.11", ""), (RECOMPILES,)),
        (Target.release("0.12.0.1", ""), (RECOMPILES,)),
        (Target(None, "0.5", "", high_inclusive=False), (RECOMPILES,)),
        (Target("0.4.30", "0.9", "", high_inclusive=False), (RECOMPILES,)),
        (Target("0.4.30", "0.9", "", high_inclusive=True), (RECOMPILES, STALE)),
        (Target("0.9", "0.11", "", high_inclusive=False), (STALE,)),
        (Target("0.9", "0.11.0", "", high_inclusive=True), (STALE, RECOMPILES)),
        (Target("0.10.2", None, "", low_inclusive=False), (STALE, RECOMPILES)),  # 0.10.3 would be stale
        (Target("0.11", None, ""), (RECOMPILES,)),
        (Target("0.4.30", None, ""), (RECOMPILES, STALE)),
        (Target(None, None, ""), (RECOMPILES, STALE)),
        (NEWEST, (RECOMPILES,)),
    ],
)
def test_a_changed_value_hashed_key_recompiles_but_on_0_9_to_0_10(target, expected):
    assert outcomes("changed-value-key", target) == expected


@pytest.mark.parametrize(
    "target, expected",
    [
        (Target("0.4.30", None, ""), "recompiles on jax < 0.9, stale on jax 0.9 to 0.10, recompiles on jax >= 0.11"),
        (Target(None, "0.10.2", ""), "recompiles on jax < 0.9, stale on jax 0.9 to 0.10"),
        (Target("0.10", None, ""), "stale on jax 0.9 to 0.10, recompiles on jax >= 0.11"),
        (Target("0.4.30", "0.9", "", high_inclusive=False), "recompiles"),
        (Target.release("0.10.2", ""), "stale"),
    ],
)
def test_the_outcomes_are_described_with_the_releases_of_each_era(target, expected):
    assert describe_outcomes("changed-value-key", target) == expected


def test_each_era_of_a_fact_was_measured_and_starts_where_the_measurements_change():
    # SUMMARY of the probe: 0.8.3 recompiles, 0.9.0 is stale, 0.10.2 stale, 0.11.0 recompiles.
    known = fact("changed-value-key")
    assert known.eras == (("0.4.30", RECOMPILES), ("0.9.0", STALE), ("0.11.0", RECOMPILES))
    assert known.checked == PROBED and len(PROBED) == 21
    for release in PROBED:
        expected = STALE if release.startswith(("0.9.", "0.10.")) else RECOMPILES
        assert outcomes("changed-value-key", Target.release(release, "")) == (expected,), release
    for item in FACTS:
        starts = [start for start, _ in item.eras]
        assert starts == sorted(starts, key=lambda release: tuple(map(int, release.split(".")))), item.key
        assert all(start in item.checked for start in starts), item.key  # each edge was measured
    assert [outcome for _, outcome in eras("changed-value-key")] == [RECOMPILES, STALE, RECOMPILES]


# --- messages by target -------------------------------------------------------------------------------


def test_on_0_9_to_0_10_a_changed_value_hashed_key_is_stale():
    text = message(VALUE_HASHED, Target.release("0.10.2", "test"))
    assert STALE_TEXT in text and "compiles again" not in text


@pytest.mark.parametrize("release", ["0.4.30", "0.8.3", "0.11", "0.12.0.1"])
def test_up_to_0_8_and_from_0_11_a_changed_value_hashed_key_compiles_again(release):
    text = message(VALUE_HASHED, Target.release(release, "test"))
    assert RECOMPILE_TEXT in text and STALE_TEXT not in text
    assert "at line 18" in text  # the change that makes it so


def test_a_range_across_eras_names_both_consequences_and_the_releases():
    text = message(VALUE_HASHED, Target("0.4.30", None, "test"))
    assert BOTH_TEXT in text and "jax >=0.4.30" in text
    text = message(VALUE_HASHED, Target("0.10", None, "test"))
    assert "old state on jax 0.9 to 0.10, and compiles again on jax >= 0.11 (jax >=0.10 admits both)" in text


def test_an_array_changed_in_place_in_a_value_hashed_static_object_has_the_same_eras():
    # JAX104's message, on the fixture that measured it.
    src = (Path(__file__).resolve().parent.parent / "fixtures" / "JAX104" / "fail_numpy_field_in_init.py").read_text()
    stale = "changes it in place, and the next call silently reuses the function compiled for the old value"
    assert stale in message(src, Target.release("0.10.2", "test"), "JAX104")
    assert "changes it in place, and " + RECOMPILE_TEXT in message(src, Target.release("0.4.30", "test"), "JAX104")
    both = message(src, Target(None, None, "test"), "JAX104")
    assert stale + " on jax 0.9 to 0.10, and compiles again on jax < 0.9 and >= 0.11" in both


@pytest.mark.parametrize("target", [Target.release("0.10.2", ""), Target.release("0.12.0.1", ""), Target("0.4", None, "")])
def test_an_identity_hashed_key_is_stale_on_every_release(target):
    text = message(IDENTITY_HASHED, target)
    assert STALE_TEXT in text and "0.11" not in text


# --- where the target comes from ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pyproject, low, high",
    [
        ('[project]\nname = "p"\ndependencies = ["jax>=0.11"]\n', "0.11", None),
        ('[project]\nname = "p"\ndependencies = ["jax[cpu]>=0.4.30,<0.11"]\n', "0.4.30", "0.11"),
        ('[project]\nname = "p"\ndependencies = ["jax==0.10.2"]\n', "0.10.2", "0.10.2"),
        ('[project]\nname = "p"\ndependencies = ["jax~=0.4.30"]\n', "0.4.30", "0.5"),
        ('[project]\nname = "p"\ndependencies = ["jax==0.4.*"]\n', "0.4", "0.5"),
        ('[project]\nname = "p"\n[project.optional-dependencies]\ntest = ["jax>=0.12"]\n', "0.12", None),
        ('[dependency-groups]\ndev = ["JAX >= 0.11.2"]\n', "0.11.2", None),
        ('[tool.poetry.dependencies]\njax = "^0.4.30"\n', "0.4.30", "0.5"),
        ('[tool.poetry.dependencies]\njax = {version = ">=0.11", extras = ["cpu"]}\n', "0.11", None),
        # Every unconditional requirement holds at once: their intersection.
        ('[project]\nname = "p"\ndependencies = ["jax>=0.4"]\n[project.optional-dependencies]\nx = ["jax<0.11"]\n', "0.4", "0.11"),
        # Requirements under environment markers hold apart: their hull.
        (
            '[project]\nname = "p"\ndependencies = ["jax<0.11; python_version<\'3.11\'", '
            '"jax>=0.12; python_version>=\'3.11\'"]\n',
            None,
            None,
        ),
    ],
)
def test_the_declared_requirement_gives_the_range(tmp_path: Path, pyproject: str, low, high):
    write(tmp_path, "pyproject.toml", pyproject)
    target = declared_target(str(tmp_path))
    assert target is not None
    assert (target.low, target.high) == (low, high)
    assert "pyproject.toml" in target.source


def test_requirements_files_and_setup_cfg_are_read(tmp_path: Path):
    write(tmp_path, "requirements.txt", "numpy\njax[cuda12]==0.10.2  # pinned for the cluster\n")
    target = declared_target(str(tmp_path))
    assert (target.low, target.high) == ("0.10.2", "0.10.2") and "requirements.txt" in target.source
    other = tmp_path / "other"
    write(other, "setup.cfg", "[options]\ninstall_requires =\n    numpy\n    jax >= 0.11\n")
    target = declared_target(str(other))
    assert (target.low, target.high) == ("0.11", None) and "setup.cfg" in target.source


_DECLARED = {
    "pyproject": lambda spec: ("pyproject.toml", f'[project]\nname = "p"\ndependencies = ["{spec}"]\n'),
    "setup.cfg": lambda spec: ("setup.cfg", f"[options]\ninstall_requires =\n    numpy\n    {spec}\n"),
    "requirements": lambda spec: ("requirements-dev.txt", f"numpy\n{spec}\n"),
}


@pytest.mark.parametrize("where", list(_DECLARED))
@pytest.mark.parametrize(
    "spec, expected",
    [
        ("jax==0.4.30", (RECOMPILES,)),
        ("jax<0.5", (RECOMPILES,)),
        ("jax>=0.4.30,<0.9", (RECOMPILES,)),
        ("jax>=0.9,<0.11", (STALE,)),
        ("jax>=0.4.30", (RECOMPILES, STALE)),
    ],
)
def test_the_declared_requirement_gives_the_outcomes_of_its_releases(tmp_path: Path, where: str, spec: str, expected):
    """An old pin gets the 0.4.x era's consequence, not the newest's nor the installed jax's."""
    write(tmp_path, *_DECLARED[where](spec))
    target = inferred_target(str(tmp_path))
    assert spec in target.source, target
    assert outcomes("changed-value-key", target) == expected, target


def test_a_pin_with_hashes_continuations_or_a_comment_is_read(tmp_path: Path):
    # pip-compile --generate-hashes writes `jax==0.4.30 \` and the hashes on the lines after it.
    write(tmp_path, "requirements.txt", "jax==0.4.30 \\\n    --hash=sha256:0123 \\\n    --hash=sha256:4567\n    # via -r requirements.in\n")
    target = declared_target(str(tmp_path))
    assert (target.low, target.high) == ("0.4.30", "0.4.30"), target
    for name, text in (
        ("requirements.txt", "jax==0.4.30 --hash=sha256:0123\n"),
        ("requirements.txt", "jax==0.4.30\t# pinned for the cluster\n"),
        ("setup.cfg", "[options]\ninstall_requires =\n    jax==0.4.30  # pinned for the cluster\n"),
    ):
        other = tmp_path / name.replace(".", "_")
        write(other, name, text)
        target = declared_target(str(other))
        assert target is not None and (target.low, target.high) == ("0.4.30", "0.4.30"), (text, target)


def test_a_project_without_a_requirement_declares_nothing(tmp_path: Path):
    write(tmp_path, "pyproject.toml", '[project]\nname = "p"\ndependencies = ["numpy", "jaxtyping>=0.2"]\n')
    write(tmp_path, "requirements.txt", "-r base.txt\n--index-url https://example.org\nflax\n")
    assert declared_target(str(tmp_path)) is None


def test_jax_is_known_by_its_canonical_name_however_spelled_and_only_by_it(tmp_path: Path):
    """A requirement is on jax when its name is `jax` once canonical (any case);
    a name that only holds "jax" (jaxlib, jax-md, flax) is not."""
    write(tmp_path, "requirements.txt", "jaxlib>=0.9\njax-md>=0.2\nflax>=0.1\nJAX[cpu]>=0.4.30 ; python_version > '3.9'\n")
    write(tmp_path, "pyproject.toml", '[tool.poetry.dependencies]\nJax = "^0.4.31"\nJax_lib = "^0.1"\n')
    target = declared_target(str(tmp_path))
    assert (target.low, target.high) == ("0.4.31", "0.5"), target
    assert "JAX[cpu]" in target.source and 'jax = "^0.4.31"' in target.source.lower()
    assert "jaxlib" not in target.source and "jax-md" not in target.source and "flax" not in target.source


def test_without_a_requirement_the_installed_jax_is_read_not_imported(tmp_path: Path):
    installed = metadata.version("jax")
    target = inferred_target(str(tmp_path))
    assert (target.low, target.high) == (installed, installed)
    assert "installed" in target.source


def test_the_configured_target_wins_and_a_bad_one_is_an_error(tmp_path: Path):
    write(tmp_path, "pyproject.toml", '[project]\nname = "p"\ndependencies = ["jax>=0.4"]\n[tool.jaxcheck]\ntarget-jax-version = "0.10"\n')
    config = load_config(str(tmp_path / "pyproject.toml")).for_project(str(tmp_path))
    assert config.options.target.describe() == "0.10" and "target-jax-version" in config.options.target.source
    write(tmp_path, "pyproject.toml", '[tool.jaxcheck]\ntarget-jax-version = "latest"\n')
    with pytest.raises(ConfigError, match="target-jax-version"):
        load_config(str(tmp_path / "pyproject.toml"))


# --- the front ends --------------------------------------------------------------------------------


def _project(tmp_path: Path, requirement: str) -> None:
    write(tmp_path, "pyproject.toml", f'[project]\nname = "p"\ndependencies = ["{requirement}"]\n')
    write(tmp_path, "demo.py", VALUE_HASHED)


def test_the_cli_writes_for_the_declared_release_and_the_flag_replaces_it(tmp_path: Path):
    _project(tmp_path, "jax>=0.11")
    declared = jaxcheck_run("check", "--format", "json", "demo.py", cwd=tmp_path)
    assert RECOMPILE_TEXT in json.loads(declared.stdout)[0]["message"]
    given = jaxcheck_run("check", "--format", "json", "--target-jax-version", "0.10.2", "demo.py", cwd=tmp_path)
    assert STALE_TEXT in json.loads(given.stdout)[0]["message"]
    bad = jaxcheck_run("check", "--target-jax-version", "new", "demo.py", cwd=tmp_path)
    assert bad.returncode == 2 and "target-jax-version" in bad.stderr


def test_show_settings_says_which_release_and_why(tmp_path: Path):
    _project(tmp_path, "jax>=0.4.30")
    shown = jaxcheck_run("check", "--show-settings", ".", cwd=tmp_path)
    assert shown.returncode == 0
    assert "target JAX: >=0.4.30 (`jax>=0.4.30` in pyproject.toml [project] dependencies)" in shown.stdout
    assert "recompiles on jax < 0.9, stale on jax 0.9 to 0.10, recompiles on jax >= 0.11" in shown.stdout


def test_flake8_takes_the_target_as_an_option(tmp_path: Path):
    _project(tmp_path, "jax>=0.11")
    declared = flake8_run("demo.py", cwd=tmp_path)
    assert RECOMPILE_TEXT in declared.stdout
    given = flake8_run("--jaxcheck-target-jax-version", "0.10", "demo.py", cwd=tmp_path)
    assert STALE_TEXT in given.stdout and RECOMPILE_TEXT not in given.stdout
