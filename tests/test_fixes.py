"""`jaxcheck check --fix`, `--diff` and `--unsafe-fixes`, through the real CLI.

Each case in `tests/fixes/<CODE>/` is a program and its `.fixed.py` twin:
`--fix` (with `--unsafe-fixes` for the cases named `unsafe_*`) on a copy must
write exactly the twin, which must parse, keep every comment of the program
and be clean of that code when checked again. Fail fixtures fixed the same
way become clean too, and two of them, run under JAX, behave.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import shutil
import textwrap
import tokenize
from pathlib import Path

import pytest

from helpers import findings_of, jaxcheck_run, text_findings, write
from jaxcheck.findings import Finding

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted(path for path in (ROOT / "tests" / "fixes").glob("JAX*/*.py") if not path.name.endswith(".fixed.py"))
FIXTURES = ROOT / "fixtures"
# Fail fixtures that have a fix: fixed (unsafe fixes included), they are clean of their code.
FIXED_FIXTURES = [
    "JAX101/fail_unsafe_hash_dataclass.py",
    "JAX102/fail_eq_false_dataclass.py",
    "JAX103/fail_child_eq_false_inherits_parent_eq.py",
    "JAX106/fail_dict_literal.py",
    "JAX106/fail_list_literal.py",
    "JAX106/fail_plain_dataclass.py",
    "JAX401/fail_filter_jit_per_call.py",
    "JAX401/fail_lambda_per_call.py",
    "JAX401/fail_local_in_loop.py",
    "JAX401/fail_nested_def_per_call.py",
    "JAX401/fail_nnx_jit_per_call.py",
    "JAX401/fail_partial_per_call.py",
]


def _expected(case: Path) -> str:
    return case.with_name(case.stem + ".fixed.py").read_text()


def _comments(text: str) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [token.string for token in tokens if token.type == tokenize.COMMENT]


@pytest.fixture(scope="module")
def fixed_cases(tmp_path_factory) -> dict[Path, tuple[Path, str]]:
    """Every case copied and fixed by one CLI run per safety level: case -> (its copy, the run's stdout)."""
    root = tmp_path_factory.mktemp("cases")
    copies = {}
    for unsafe in (False, True):
        folder = root / ("unsafe" if unsafe else "safe")
        chosen = [case for case in CASES if case.name.startswith("unsafe_") == unsafe]
        for case in chosen:
            copies[case] = folder / case.parent.name / case.name
            copies[case].parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(case, copies[case])
        run = jaxcheck_run("check", "--no-cache", "--fix", *(["--unsafe-fixes"] if unsafe else []), ".", cwd=folder)
        assert run.returncode in (0, 1), run.stderr
        for case in chosen:
            copies[case] = (copies[case], run.stdout)
    return copies


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case.parent.name}/{case.name}")
def test_fix_writes_the_expected_program(case: Path, fixed_cases):
    copy, stdout = fixed_cases[case]
    fixed = copy.read_text()
    assert fixed == _expected(case)
    ast.parse(fixed)
    assert _comments(case.read_text()) == _comments(fixed)  # every comment kept, in order
    remaining = [finding for finding in text_findings(stdout) if finding[0].endswith(f"{case.parent.name}/{case.name}")]
    assert [finding for finding in remaining if finding[3] == case.parent.name] == []


def test_the_cases_are_flagged_before_the_fix():
    run = jaxcheck_run("check", "--no-cache", *(str(case) for case in CASES), cwd=ROOT)
    flagged = {(Path(path).parent.name, Path(path).name) for path, _, _, code, _ in text_findings(run.stdout)
               if code == Path(path).parent.name}
    assert flagged == {(case.parent.name, case.name) for case in CASES}


def test_safe_fixes_leave_the_unsafe_ones_and_say_so(tmp_path: Path):
    safe = CASES[[case.name for case in CASES].index("list_literal.py")]
    unsafe = CASES[[case.name for case in CASES].index("unsafe_dict_literal.py")]
    for case in (safe, unsafe):
        shutil.copy(case, tmp_path / case.name)
    before = jaxcheck_run("check", "--no-cache", ".", cwd=tmp_path)
    assert before.stderr.endswith(
        "[*] 6 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )
    run = jaxcheck_run("check", "--no-cache", "--fix", ".", cwd=tmp_path)
    assert run.returncode == 1
    assert (tmp_path / safe.name).read_text() == _expected(safe)
    assert (tmp_path / unsafe.name).read_text() == unsafe.read_text()
    assert [(Path(path).name, code) for path, _, _, code, _ in text_findings(run.stdout)] == [(unsafe.name, "JAX106")]
    assert "Found 7 findings (6 fixed, 1 remaining) in 2 files (2 checked)." in run.stderr
    assert "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)." in run.stderr


def test_diff_prints_what_fix_would_change_and_writes_nothing(tmp_path: Path):
    case = CASES[[case.name for case in CASES].index("unsafe_lambda.py")]
    copy = tmp_path / case.name
    shutil.copy(case, copy)
    run = jaxcheck_run("check", "--no-cache", "--diff", "--unsafe-fixes", ".", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert copy.read_bytes() == case.read_bytes()
    assert run.stdout.startswith(f"--- ./{case.name}\n+++ ./{case.name}\n@@ ")
    assert "+_jitted_step = jax.jit(lambda v: _body(v))\n" in run.stdout
    assert "-    return jax.jit(lambda v: _body(v))(x)\n+    return _jitted_step(x)\n" in run.stdout
    assert "Would fix 1 finding." in run.stderr
    safe_only = jaxcheck_run("check", "--no-cache", "--diff", ".", cwd=tmp_path)
    assert (safe_only.returncode, safe_only.stdout) == (0, "")
    assert "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)." in safe_only.stderr
    assert copy.read_bytes() == case.read_bytes()


def test_the_fix_goes_to_the_file_where_the_class_is(tmp_path: Path):
    """`jaxcheck check integrate.py` reports the class in settings.py; --fix edits settings.py."""
    settings = write(tmp_path, "settings.py", "import dataclasses\n\n\n@dataclasses.dataclass\nclass Config:\n    scale: int\n")
    integrate = write(
        tmp_path,
        "integrate.py",
        textwrap.dedent(
            """\
            import jax

            from settings import Config


            def step(x, cfg):
                return x * cfg.scale


            g = jax.jit(step, static_argnums=1)


            def run(x):
                return g(x, Config(3))
            """
        ),
    )
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    untouched = integrate.read_text()
    before = jaxcheck_run("check", "--no-cache", "integrate.py", cwd=tmp_path)
    assert [(path, code) for path, _, _, code, _ in text_findings(before.stdout)] == [("settings.py", "JAX106")]
    run = jaxcheck_run("check", "--no-cache", "--fix", "--unsafe-fixes", "integrate.py", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "@dataclasses.dataclass(frozen=True)\nclass Config:" in settings.read_text()
    assert integrate.read_text() == untouched
    assert "Found 1 finding (1 fixed, 0 remaining)" in run.stderr


def test_encoding_byte_order_mark_and_line_endings_are_kept(tmp_path: Path):
    program = (
        "# -*- coding: latin-1 -*-\n"
        "# café\n"
        "from functools import partial\n\nimport jax\n\n\n"
        "@partial(jax.jit, static_argnums=1)\ndef f(x, dims):\n    return x * sum(dims)\n\n\n"
        "def run(x):\n    return f(x, [1, 2])\n"
    )
    latin = write(tmp_path, "latin.py", program.replace("\n", "\r\n").encode("latin-1"))
    marked = write(tmp_path, "marked.py", b"\xef\xbb\xbf" + program.replace("# -*- coding: latin-1 -*-\n", "").encode())
    run = jaxcheck_run("check", "--no-cache", "--fix", ".", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    expected = program.replace("f(x, [1, 2])", "f(x, (1, 2))")
    assert latin.read_bytes() == expected.replace("\n", "\r\n").encode("latin-1")
    assert marked.read_bytes() == b"\xef\xbb\xbf" + expected.replace("# -*- coding: latin-1 -*-\n", "").encode()


def test_fixed_fail_fixtures_are_clean_of_their_code(tmp_path: Path):
    for relative in FIXED_FIXTURES:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / relative, tmp_path / relative)
    run = jaxcheck_run("check", "--no-cache", "--fix", "--unsafe-fixes", ".", cwd=tmp_path)
    left = {(Path(path).parent.name, Path(path).name) for path, _, _, code, _ in text_findings(run.stdout)
            if code == Path(path).parent.name}
    assert left == set()
    for relative in FIXED_FIXTURES:
        assert (tmp_path / relative).read_text() != (FIXTURES / relative).read_text(), relative
        ast.parse((tmp_path / relative).read_text())
    assert f"({len(FIXED_FIXTURES)} fixed" in run.stderr


@pytest.mark.parametrize("relative", ["JAX106/fail_list_literal.py", "JAX401/fail_lambda_per_call.py"])
def test_a_fixed_fail_fixture_behaves_under_jax(relative: str, tmp_path: Path):
    pytest.importorskip("jax")
    copy = tmp_path / Path(relative).name
    shutil.copy(FIXTURES / relative, copy)
    run = jaxcheck_run("check", "--no-cache", "--fix", *(["--unsafe-fixes"] if "JAX401" in relative else []), ".", cwd=tmp_path)
    assert "1 fixed, 0 remaining" in run.stderr, run.stderr
    spec = importlib.util.spec_from_file_location(f"fixed_{copy.stem}", copy)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shown = module.demonstrate()
    assert shown["observed"] == shown["expected"], shown


# --- which findings get a fix, in-process ---------------------------------------------------


def _fix_of(src: str, code: str):
    from jaxcheck.fixes import fix_for

    text = textwrap.dedent(src)
    findings, failed = findings_of(text)
    assert not failed
    found = [finding for finding in findings if finding.code == code]
    assert found, findings
    return [fix_for(finding, text) for finding in found]


def test_a_list_literal_fix_is_safe_where_jax_raises_and_unsafe_under_checkpoint():
    jit = _fix_of(
        """\
        from functools import partial
        import jax

        @partial(jax.jit, static_argnums=1)
        def f(x, dims):
            return x * sum(dims)

        f(1.0, [1, 2])
        """,
        "JAX106",
    )
    assert [(kind.safe, kind.title) for kind in jit] == [(True, "Replace the list with a tuple")]
    case = CASES[[case.name for case in CASES].index("unsafe_list_under_checkpoint.py")]
    assert [kind.safe for kind in _fix_of(case.read_text(), "JAX106")] == [False]
    # The level comes from what the rule knows (JAX raises there), never from the message's words.
    from dataclasses import replace

    from jaxcheck.fixes import fix_for

    text = case.read_text()
    (finding,) = [finding for finding in findings_of(text)[0] if finding.code == "JAX106"]
    assert not finding.raises
    assert fix_for(replace(finding, template=f"{finding.template}: ValueError"), text).safe is False
    assert fix_for(replace(finding, raises=True), text).safe is True


def test_no_fix_where_it_would_break_the_program_or_its_meaning():
    # A field set in __post_init__: a frozen instance would raise on construction.
    assert _fix_of(
        """\
        import dataclasses
        import jax

        @dataclasses.dataclass
        class Config:
            scale: int
            def __post_init__(self):
                self.double = 2 * self.scale

        def step(x, cfg):
            return x * cfg.double

        g = jax.jit(step, static_argnums=1)
        g(1.0, Config(3))
        """,
        "JAX106",
    ) == [None]
    # A non-frozen dataclass subclass in the same file: it could no longer inherit.
    assert _fix_of(
        """\
        import dataclasses
        import jax

        @dataclasses.dataclass
        class Config:
            scale: int

        @dataclasses.dataclass
        class Wider(Config):
            width: int = 1

        def step(x, cfg):
            return x * cfg.scale

        g = jax.jit(step, static_argnums=1)
        g(1.0, Config(3))
        """,
        "JAX106",
    ) == [None]
    # A list bound to a name first: another use of the name may need a list.
    assert _fix_of(
        """\
        from functools import partial
        import jax

        @partial(jax.jit, static_argnums=1)
        def f(x, dims):
            return x * sum(dims)

        dims = [1, 2]
        f(1.0, dims)
        """,
        "JAX106",
    ) == [None]
    # A lambda over a local of the function: at module level the name means nothing.
    assert _fix_of(
        """\
        import jax

        def step(x, scale):
            return jax.jit(lambda v: v * scale)(x)

        for _ in range(3):
            step(1.0, 2.0)
        """,
        "JAX401",
    ) == [None]
    # ... or read only in a generator inside the lambda.
    assert _fix_of(
        """\
        import jax

        def step(x, items):
            return jax.jit(lambda v: sum(w for w in items) * v)(x)

        for _ in range(3):
            step(1.0, [1.0])
        """,
        "JAX401",
    ) == [None]


def test_a_fix_whose_result_would_not_parse_is_not_made(monkeypatch):
    import libcst as cst

    from jaxcheck.fixes import fixing
    from jaxcheck.fixes.edits import SAFE, Edit, FixKind

    def broken(finding, located):
        node = located.at(finding.line, finding.column, (cst.List,))[0]
        return Edit(FixKind(SAFE, "break it"), node, lambda _: cst.Name("lambda"))  # `f(x, lambda)`

    monkeypatch.setitem(fixing.FIXERS, "JAX106", (broken,))
    text = "f(x, [1, 2])\n"
    fixed = fixing.fix_source(text, [Finding("demo.py", 1, 6, "JAX106", "m")], unsafe=True)
    assert (fixed.text, fixed.applied) == (text, ())


def test_the_codes_with_a_fix_are_known_without_libcst():
    from jaxcheck.findings import FIXABLE_CODES
    from jaxcheck.fixes import FIXERS

    assert set(FIXERS) == FIXABLE_CODES


def test_flake8_never_reaches_the_fixes():
    for module in ("flake8_plugin.py", "engine.py"):
        tree = ast.parse((ROOT / "jaxcheck" / module).read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not any(name and name.startswith("jaxcheck.fixes") for name in imported), module


def test_a_fix_that_would_lose_a_comment_is_not_made():
    from jaxcheck.fixes import fix_source

    text = 'f(x, {"a":  # the scale\n    3})\n'
    fixed = fix_source(text, [Finding("demo.py", 1, 6, "JAX106", "m")], unsafe=True)
    assert (fixed.text, fixed.applied) == (text, ())
    kept = 'f(x, {"a": 3,  # the scale\n    "b": 1})\n'
    assert fix_source(kept, [Finding("demo.py", 1, 6, "JAX106", "m")], unsafe=True).text == (
        'f(x, (("a", 3),  # the scale\n    ("b", 1)))\n'
    )
