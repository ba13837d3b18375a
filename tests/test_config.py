"""`[tool.jaxcheck]` in pyproject.toml, as a user meets it through the real CLI.

The config sits in tmp_path; the checked path is below it (tmp_path/pkg/sub), so
every test also checks that the config is found by walking up from the path.
The last part unit-tests the .gitignore-style matcher behind `exclude` and
`per-file-ignores`.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import BOTH, BUGGY, buggy_at, cpu_seconds, jaxcheck_run, located, write
from jaxcheck.loading.pathmatch import PatternError, compile_pattern, matches_any


def configure(root: Path, body: str) -> Path:
    return write(root, "pyproject.toml", "[project]\nname = 'demo'\n\n[tool.jaxcheck]\n" + body)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write(tmp_path, "pkg/sub/a.py", BUGGY)
    write(tmp_path, "pkg/sub/tests/t.py", BUGGY)
    return tmp_path


# --- select / ignore, found by walking up ---------------------------------------------------


def test_no_config_reports_everything(tree: Path) -> None:
    completed = jaxcheck_run("check", "pkg/sub", cwd=tree)
    assert completed.returncode == 1, completed.stderr
    assert located(completed.stdout) == buggy_at("pkg/sub/a.py") | buggy_at("pkg/sub/tests/t.py")


def test_select_from_config_found_above_the_checked_path(tree: Path) -> None:
    configure(tree, 'select = ["JAX102"]\n')
    # The current folder has its own, different config: the checked path's wins.
    elsewhere = tree / "elsewhere"
    configure(elsewhere, 'select = ["JAX101"]\n')
    checked = tree / "pkg" / "sub"
    completed = jaxcheck_run("check", str(checked), cwd=elsewhere)
    assert completed.returncode == 1, completed.stderr
    assert located(completed.stdout) == buggy_at(str(checked / "a.py"), {"JAX102"}) | buggy_at(
        str(checked / "tests" / "t.py"), {"JAX102"}
    )


@pytest.mark.parametrize(
    "body, codes",
    [
        ('ignore = ["JAX101"]\n', {"JAX102"}),
        ('select = ["JAX1"]\n', BOTH),
        ('select = ["JAX1"]\nignore = ["JAX102"]\n', {"JAX101"}),
        ('ignore = ["JAX1"]\n', set()),
    ],
)
def test_select_and_ignore_in_config(tree: Path, body: str, codes: set[str]) -> None:
    configure(tree, body)
    completed = jaxcheck_run("check", "pkg/sub", cwd=tree)
    assert completed.returncode == (1 if codes else 0), completed.stderr
    assert located(completed.stdout) == buggy_at("pkg/sub/a.py", codes) | buggy_at("pkg/sub/tests/t.py", codes)


@pytest.mark.parametrize(
    "body, codes",
    [
        ('select = ["mutable-static"]\n', {"JAX101"}),
        ('ignore = ["identity-hash-static"]\n', {"JAX101"}),
        ('select = ["JAX2"]\nextend-select = ["JAX102"]\n', {"JAX102"}),
        ('select = ["JAX1"]\nignore = ["JAX1"]\nextend-select = ["mutable-static"]\n', {"JAX101"}),
        ('per-file-ignores = { "pkg/sub/a.py" = ["mutable-static"] }\n', {"JAX102"}),
    ],
)
def test_rule_names_and_extend_select_in_config(tree: Path, body: str, codes: set[str]) -> None:
    configure(tree, body)
    completed = jaxcheck_run("check", "pkg/sub/a.py", cwd=tree)
    assert completed.returncode == (1 if codes else 0), completed.stderr
    assert located(completed.stdout) == buggy_at("pkg/sub/a.py", codes)


def test_command_line_select_replaces_and_ignore_extends_the_config(tree: Path) -> None:
    configure(tree, 'select = ["JAX102"]\nignore = ["JAX106"]\n')
    replaced = jaxcheck_run("check", "--select", "JAX101", "pkg/sub/a.py", cwd=tree)
    assert located(replaced.stdout) == buggy_at("pkg/sub/a.py", {"JAX101"})
    extended = jaxcheck_run("check", "--ignore", "JAX102", "pkg/sub/a.py", cwd=tree)
    assert extended.returncode == 0
    assert located(extended.stdout) == set()


def test_pyproject_without_the_table_is_skipped(tree: Path) -> None:
    configure(tree, 'select = ["JAX102"]\n')
    write(tree, "pkg/pyproject.toml", "[project]\nname = 'inner'\n\n[tool.black]\nline-length = 100\n")
    completed = jaxcheck_run("check", "pkg/sub", cwd=tree)
    assert completed.returncode == 1, completed.stderr
    assert located(completed.stdout) == buggy_at("pkg/sub/a.py", {"JAX102"}) | buggy_at(
        "pkg/sub/tests/t.py", {"JAX102"}
    )


# --- per-file-ignores ----------------------------------------------------------------------------


@pytest.mark.parametrize("pattern", ["pkg/sub/tests/*", "**/tests/*", "tests/", "t.py", "/pkg/sub/tests"])
def test_per_file_ignores(tree: Path, pattern: str) -> None:
    configure(tree, f'[tool.jaxcheck.per-file-ignores]\n"{pattern}" = ["JAX101"]\n')
    completed = jaxcheck_run("check", "pkg/sub", cwd=tree)
    assert completed.returncode == 1, completed.stderr
    assert located(completed.stdout) == buggy_at("pkg/sub/a.py") | buggy_at("pkg/sub/tests/t.py", {"JAX102"})


def test_per_file_ignores_pattern_with_slash_is_anchored_at_the_config(tree: Path) -> None:
    write(tree, "tests/t.py", BUGGY)
    configure(tree, '[tool.jaxcheck.per-file-ignores]\n"tests/*" = ["JAX1"]\n')
    completed = jaxcheck_run("check", ".", cwd=tree)
    assert completed.returncode == 1, completed.stderr
    # ./tests/t.py matches; ./pkg/sub/tests/t.py does not (as in .gitignore and flake8).
    assert located(completed.stdout) == buggy_at("./pkg/sub/a.py") | buggy_at("./pkg/sub/tests/t.py")


# --- exclude -------------------------------------------------------------------------------------


@pytest.fixture
def excluded_tree(tmp_path: Path) -> Path:
    for relative in (
        "pkg/sub/a.py",
        "pkg/sub/generated/g.py",
        "pkg/sub/generated/deeper/h.py",
        "pkg/sub/x_pb2.py",
        "pkg/sub/build_x/b.py",  # not at the root: `/build_x` does not match it
        "build_x/c.py",
    ):
        write(tmp_path, relative, BUGGY)
    configure(tmp_path, 'exclude = ["generated/", "*_pb2.py", "/build_x"]\n')
    return tmp_path


def test_exclude_below_the_checked_path(excluded_tree: Path) -> None:
    completed = jaxcheck_run("check", "pkg/sub", cwd=excluded_tree)
    assert completed.returncode == 1, completed.stderr
    assert located(completed.stdout) == buggy_at("pkg/sub/a.py") | buggy_at("pkg/sub/build_x/b.py")
    assert "(2 checked)" in completed.stderr


def test_exclude_anchored_pattern_from_the_root(excluded_tree: Path) -> None:
    completed = jaxcheck_run("check", ".", cwd=excluded_tree)
    assert completed.returncode == 1, completed.stderr
    assert located(completed.stdout) == buggy_at("./pkg/sub/a.py") | buggy_at("./pkg/sub/build_x/b.py")


@pytest.mark.parametrize("path", ["pkg/sub/x_pb2.py", "pkg/sub/generated", "pkg/sub/generated/g.py", "build_x"])
def test_excluded_paths_named_on_the_command_line_stay_excluded(excluded_tree: Path, path: str) -> None:
    completed = jaxcheck_run("check", path, cwd=excluded_tree)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == ""
    assert "(0 checked)" in completed.stderr


def test_directory_only_pattern_does_not_exclude_a_file(tmp_path: Path) -> None:
    write(tmp_path, "pkg/gen", BUGGY)  # a file named like the folder pattern
    configure(tmp_path, 'exclude = ["gen/"]\n')
    completed = jaxcheck_run("check", "pkg/gen", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    assert located(completed.stdout) == buggy_at("pkg/gen")


# --- errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, problem",
    [
        ('[tool.jaxcheck]\nselct = ["JAX102"]\n', r"unknown key 'selct'"),
        ('[tool.jaxcheck]\nselect = ["JAX999"]\n', r"unknown code 'JAX999'.*'select'"),
        ('[tool.jaxcheck]\nignore = ["JAX9"]\n', r"unknown code 'JAX9'.*'ignore'"),
        ('[tool.jaxcheck]\nselect = 3\n', r"'select' must be a list"),
        ('[tool.jaxcheck]\nselect = ["JAX101", 3]\n', r"'select' must be a list"),
        ('[tool.jaxcheck]\nselect = "JAX1"\n', r"'select' must be a list .*not the string 'JAX1'"),
        ('[tool.jaxcheck]\nextend-select = "JAX001"\n', r"'extend-select' must be a list"),
        ('[tool.jaxcheck]\nignore = ["mutable-statc"]\n', r"unknown code 'mutable-statc'.*'ignore'"),
        ('[tool.jaxcheck]\nexclude = "generated/"\n', r"'exclude' must be a list"),
        ('[tool.jaxcheck.per-file-ignores]\n"tests/*" = ["JAX999"]\n', r"unknown code 'JAX999'.*per-file-ignores"),
        ('[tool.jaxcheck]\nper-file-ignores = ["tests/*"]\n', r"'per-file-ignores' must be a table"),
        ("[tool]\njaxcheck = 3\n", r"must be a table"),
        ('[tool.jaxcheck\nselect = ["JAX101"]\n', r"not valid TOML"),
        ('[tool.jaxcheck]\nselect = ["JAX101"\n', r"not valid TOML"),
    ],
    ids=[
        "unknown-key",
        "unknown-select-code",
        "unknown-ignore-code",
        "select-not-list",
        "select-item-not-str",
        "select-a-string",
        "extend-select-a-string",
        "ignore-unknown-name",
        "exclude-not-list",
        "per-file-unknown-code",
        "per-file-not-table",
        "table-not-table",
        "bad-toml-header",
        "bad-toml-array",
    ],
)
def test_config_errors_exit_2_with_one_clear_line(tree: Path, text: str, problem: str) -> None:
    config = write(tree, "pyproject.toml", text)
    completed = jaxcheck_run("check", "pkg/sub", cwd=tree)
    assert completed.returncode == 2, (completed.stdout, completed.stderr)
    assert completed.stdout == ""
    lines = completed.stderr.splitlines()
    assert len(lines) == 1, completed.stderr
    assert lines[0].startswith("jaxcheck: error: ")
    assert str(config) in lines[0]
    assert re.search(problem, lines[0]), lines[0]


def test_config_error_in_the_nearest_table_wins_over_a_good_one_above(tree: Path) -> None:
    configure(tree, 'select = ["JAX102"]\n')
    inner = configure(tree / "pkg", 'selct = ["JAX101"]\n')
    completed = jaxcheck_run("check", "pkg/sub", cwd=tree)
    assert completed.returncode == 2
    assert completed.stderr.startswith(f"jaxcheck: error: {inner} [tool.jaxcheck]: unknown key 'selct'")


# --- the .gitignore-style matcher -------------------------------------------------------------------


@pytest.mark.parametrize(
    "patterns, path, is_dir, expected",
    [
        # a name without a slash matches at any depth, and everything below it
        (["*.py"], "a/b/c.py", False, True),
        (["*_pb2.py"], "p/q_pb2.py", False, True),
        (["x"], "a/x/y.py", False, True),
        (["?.py"], "a.py", False, True),
        (["?.py"], "ab.py", False, False),
        (["*.py"], "a/b", True, False),
        # `!` re-includes; the last matching pattern wins
        (["*.py", "!keep.py"], "a/keep.py", False, False),
        (["*.py", "!keep.py"], "a/other.py", False, True),
        (["!keep.py", "*.py"], "a/keep.py", False, True),
        (["!x.py"], "x.py", False, False),
        # `**/` matches zero or more folders
        (["**/foo"], "foo", False, True),
        (["**/foo"], "a/b/foo", False, True),
        (["**/foo/bar"], "foo/bar", False, True),
        (["**/foo/bar"], "a/foo/bar", False, True),
        (["a/**/b"], "a/b", False, True),
        (["a/**/b"], "a/x/y/b", False, True),
        (["a/**"], "a/x/y", False, True),
        (["a/**"], "a", True, False),
        # a leading slash, or a slash inside, anchors at the config's folder
        (["/x"], "x", False, True),
        (["/x"], "x/y.py", False, True),
        (["/x"], "a/x", False, False),
        (["/x"], "a/x/y.py", False, False),
        (["a/x"], "a/x", False, True),
        (["a/x"], "b/a/x", False, False),
        (["a/*.py"], "a/b/c.py", False, False),
        # a trailing slash matches folders only (and what is below them)
        (["x/"], "x", True, True),
        (["x/"], "x", False, False),
        (["x/"], "a/x", False, False),
        (["x/"], "x/y.py", False, True),
        (["x/"], "a/x/y.py", False, True),
        (["x/", "!x/"], "x/y.py", False, False),
        ([], "x.py", False, False),
    ],
)
def test_matches_any(patterns: list[str], path: str, is_dir: bool, expected: bool) -> None:
    assert matches_any(tuple(patterns), path, is_dir) is expected


def test_matches_any_cannot_reinclude_below_an_excluded_folder() -> None:
    assert matches_any(("generated/", "!generated/keep.py"), "generated/keep.py", False) is True


def test_matches_any_character_class() -> None:
    assert matches_any(("[ab].py",), "a.py", False) is True
    assert matches_any(("[ab].py",), "c.py", False) is False


def test_matches_any_escaped_bang() -> None:
    assert matches_any(("\\!important.py",), "!important.py", False) is True


# --- patterns: read once, matched without backtracking (issue 16, items 4 and 5) ------------------


@pytest.mark.parametrize("key", ["exclude", "per-file-ignores"])
@pytest.mark.parametrize(
    "pattern, problem",
    [("[z-a]", r"the range z-a in '\[z-a\]' runs backwards"), ("[!]", r"never closed"), ("src/[ab", r"never closed")],
)
def test_an_invalid_pattern_is_a_configuration_error(tree: Path, key: str, pattern: str, problem: str) -> None:
    body = f"exclude = [{pattern!r}]\n" if key == "exclude" else f"[tool.jaxcheck.per-file-ignores]\n{pattern!r} = [\"JAX101\"]\n"
    config = configure(tree, body if key == "exclude" else "")
    if key != "exclude":
        config.write_text(config.read_text() + body)
    completed = jaxcheck_run("check", ".", cwd=tree)
    assert completed.returncode == 2, completed.stderr  # not 1, the findings code
    assert "Traceback" not in completed.stderr
    assert completed.stderr.startswith(f"jaxcheck: error: {config} [tool.jaxcheck]: {key!r}: "), completed.stderr
    assert re.search(problem, completed.stderr), completed.stderr


def _regex_of(pattern: str) -> re.Pattern[str] | None:
    """The oracle: a pattern as a backtracking regex (what the matcher replaced), for
    patterns without escapes and with closed, forward classes; a class never matches `/`."""
    directory_only = pattern.endswith("/")
    pattern = pattern.rstrip("/")
    anchored = "/" in pattern
    pattern = pattern.lstrip("/")
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.find("]", i + 2 + (pattern[i + 1 : i + 2] == "!"))
            if end < 0:
                return None
            body = pattern[i + 1 : end]
            negated = body.startswith("!")
            body = (body[1:] if negated else body).replace("[", "\\[")
            out.append("(?!/)[" + ("^" if negated else "") + body + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # `[a--]`: a range, to Python's re too
            return re.compile(("" if anchored else "(?:.*/)?") + "".join(out)), directory_only
    except re.error:
        return None


@settings(max_examples=400, deadline=None)
@given(pattern=st.text("ab/*?[]!-", min_size=1, max_size=8), path=st.text("ab/-!", max_size=8))
def test_the_matcher_agrees_with_the_regex_it_replaced(pattern: str, path: str) -> None:
    oracle = _regex_of(pattern)
    try:
        compiled = compile_pattern(pattern)
    except PatternError:
        assert oracle is None or "[" in pattern, pattern
        return
    if oracle is None:
        return
    regex, directory_only = oracle
    assert compiled.directory_only == directory_only
    assert compiled.fullmatch(path) == (regex.fullmatch(path) is not None), (pattern, path)


def test_matching_time_grows_linearly_with_the_name_however_many_stars() -> None:
    # As a backtracking regex, this pattern took 33 s on one 60-character name.
    stars = compile_pattern("*a*a*a*a*a*a*a*aX")
    short, long = "a" * 2_000, "a" * 8_000
    assert not stars.fullmatch("a" * 60)
    ratio = cpu_seconds(lambda: stars.fullmatch(long)) / cpu_seconds(lambda: stars.fullmatch(short))
    assert ratio < 8, ratio  # 4 when linear, 16 when quadratic
