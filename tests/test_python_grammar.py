"""Syntax: one verdict, Python's own, in every channel.

What Python itself refuses, even past the parser (`return` at module level,
a repeated parameter), is JAX000 in the CLI and in single-file checks alike.
jaxcheck may run on Python 3.11 over code written for 3.12 (JAX dropped 3.11
in 0.11): such a file is one JAX000 that names the Python it needs, as
flake8's E999 says the file is not this interpreter's Python.
"""

from __future__ import annotations

import ast

import json
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

from helpers import BUG_LINE, BUGGY, codes_at, findings_of, flake8_run, jaxcheck_run, write
from jaxcheck.failures import deep_recursion
from jaxcheck.loading.syntax import parsed, syntax_error_of

# PEP 695 generics and `type` statements, and PEP 701 f-strings (nested quotes,
# a backslash in the expression), around a mutable static class.
PY312 = textwrap.dedent(
    '''\
    import jax

    type Pair = tuple[float, float]


    def first[T](xs: list[T]) -> T:
        return xs[0]


    class Box[T]:
        def get(self) -> T: ...


    names = ["a", "b"]
    joined = f"{'\\n'.join(names)}"
    nested = f"{f"{1}"}"


    class Vehicle:
        def __init__(self, num_wheels):
            self.num_wheels = num_wheels


    @jax.jit(static_argnums=0)
    def f(x):
        return x.num_wheels


    for _ in range(2):
        car = Vehicle(2)
        f(car)
    car.num_wheels = 4
    '''
)
VEHICLE_LINE = PY312.splitlines().index("class Vehicle:") + 1


def test_python_3_12_syntax_is_analysed_where_python_reads_it_and_named_where_it_does_not():
    if sys.version_info >= (3, 12):
        assert syntax_error_of(PY312, "new.py") is None
        assert codes_at(PY312) == {(VEHICLE_LINE, "JAX101"), (VEHICLE_LINE, "JAX102")}
    else:
        problem = syntax_error_of(PY312, "new.py")
        assert problem is not None and problem.line == 3  # the `type` statement
        assert "a `type` statement is syntax of Python 3.12" in problem.message
        assert "run jaxcheck on Python 3.12 or newer" in problem.message
        assert codes_at(PY312) == {(3, "JAX000")}


def test_python_3_12_syntax_in_a_project(tmp_path: Path):
    write(tmp_path, "pyproject.toml", "")
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/new.py", PY312)
    completed = jaxcheck_run("check", "--format", "json", ".", cwd=tmp_path)
    found = {(record["path"], record["line"], record["code"]) for record in json.loads(completed.stdout)}
    if sys.version_info >= (3, 12):
        assert found == {("./pkg/new.py", VEHICLE_LINE, "JAX101"), ("./pkg/new.py", VEHICLE_LINE, "JAX102")}
    else:
        assert found == {("./pkg/new.py", 3, "JAX000")}


@pytest.mark.parametrize(
    "source, line",
    [
        ("def f(:\n    pass\n", 1),
        ("print 'x'\n", 1),
        ("type X = \n", 1),  # a `type` statement, broken: refused by every grammar
        ("def g[T](x: T:\n    pass\n", 1),
    ],
)
def test_a_text_no_grammar_accepts_is_bad_input_everywhere(source: str, line: int):
    problem = syntax_error_of(source, "bad.py")
    assert problem is not None and problem.code == "JAX000" and problem.line == line
    assert problem.message.startswith("cannot parse: syntax error")


# Texts the parser (and LibCST) accept but Python's compiler refuses.
COMPILER_REFUSES = [
    pytest.param("return 1\n", id="return-at-module-level"),
    pytest.param("def g(a, a):\n    pass\n", id="repeated-parameter"),
    pytest.param("x = 1\nfrom __future__ import annotations\n", id="late-future-import"),
    pytest.param("def g():\n    nonlocal q\n", id="nonlocal-at-function-level"),
    # Issue 16, item 10: what Python's tokenizer or parser refuses, and LibCST reads.
    pytest.param("x = '\\x1'\n", id="truncated-hex-escape"),
    pytest.param("x = '\\N{BOGUS}'\n", id="unknown-character-name"),
    pytest.param("x = b'\u00e9'\n", id="non-ascii-bytes"),
    pytest.param("x = 1  # a NUL \x00 in a comment\n", id="nul-in-a-comment"),
    pytest.param("try:\n    pass\nexcept E, e:\n    pass\n", id="python-2-except"),
]


@pytest.mark.parametrize("body", COMPILER_REFUSES)
def test_what_the_compiler_refuses_is_bad_input_in_single_file_checks(body: str):
    src = "import jax\n# static_argnums\n" + body
    with pytest.raises((SyntaxError, ValueError)):  # a NUL is a ValueError before Python 3.12
        compile(src, "x.py", "exec")
    assert {code for _, code in codes_at(src)} == {"JAX000"}


@pytest.mark.parametrize("body", COMPILER_REFUSES)
def test_what_python_refuses_is_one_error_under_flake8_too(tmp_path: Path, body: str):
    # flake8 says E999 for what its parser (`ast.parse`) refuses; what only the
    # compiler refuses, flake8 lets through and jaxcheck says JAX000, as its CLI does.
    text = BUGGY.replace("import jax\n", "import jax\n" + body, 1)
    write(tmp_path, "bad.py", text)
    try:
        ast.parse(text)
        expected = {"JAX000"}
    except (SyntaxError, ValueError):
        expected = {"E999"}
    completed = flake8_run("bad.py", cwd=tmp_path, select="JAX,E999")
    assert {line.split(" ")[1] for line in completed.stdout.splitlines()} == expected, completed.stdout


@pytest.mark.parametrize("body", COMPILER_REFUSES)
def test_what_the_compiler_refuses_is_bad_input_in_the_cli(tmp_path: Path, body: str):
    # The buggy class would be flagged if the file were analysed: it is not.
    write(tmp_path, "pyproject.toml", "")
    write(tmp_path, "bad.py", BUGGY.replace("import jax\n", "import jax\n" + body, 1))
    completed = jaxcheck_run("check", "--format", "json", ".", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    assert {record["code"] for record in json.loads(completed.stdout)} == {"JAX000"}


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the interpreter's own grammar has the syntax")
def test_on_an_older_python_newer_syntax_is_one_error_that_names_the_python_it_needs():
    # Python 3.11 stops at the f-string; LibCST reads it as Python 3.12's. An
    # error Python meets before any newer syntax is an error of its own.
    problem = syntax_error_of('x = f"{\'\\n\'.join([])}"\n', "a.py")
    assert problem is not None and "this f-string is syntax of Python 3.12" in problem.message
    broken = 'y = \'\\N{NO SUCH NAME}\'\nx = f"{\'\\n\'.join([])}"\n'
    problem = syntax_error_of(broken, "b.py")
    assert problem is not None and problem.line == 1 and "syntax error" in problem.message
    plain = syntax_error_of('x = f"{1}" +\n', "c.py")  # an f-string any Python reads, on a broken line
    assert plain is not None and "syntax error" in plain.message


@pytest.mark.parametrize(
    "source",
    [
        "try:\n    pass\n\\\r\nfinally:\n    pass\n",
        "if x:\n    pass\n\\\nelse:\n    pass\n",
    ],
)
def test_a_line_that_is_only_a_continuation_is_read_as_python_reads_it(source: str) -> None:
    # LibCST refuses a lone backslash line before a clause keyword; Python reads nothing there.
    text = BUGGY + source
    assert (BUG_LINE, "JAX101") in codes_at(text)


def _long_sum(terms: int) -> str:
    return (
        "import jax\n"
        "from functools import partial\n"
        "@partial(jax.jit, static_argnums=0)\n"
        "def f(n): return n\n"
        "x = " + " + ".join(f"a{i}" for i in range(terms)) + "\n"
    )


@pytest.mark.parametrize("terms", [490, 700])
def test_deep_long_sum_is_not_bad_input(terms):
    # CPython compiles these sums (it gives up near 3000 terms), so they are valid files, not JAX000.
    src = _long_sum(terms)
    compile(src, "deep.py", "exec")
    assert codes_at(src) == set()


def test_a_sum_of_1500_terms_is_python_and_analysed_where_the_interpreter_allows():
    # Every supported Python compiles it, so it is never "cannot parse" (ast.parse
    # alone refuses it on 3.12, and jaxcheck says it could not analyse the
    # file, not that the file is bad).
    src = _long_sum(1500)
    compile(src, "deep.py", "exec")
    findings, failed = findings_of(src, "demo.py")
    assert not failed
    if sys.version_info[:2] == (3, 12):
        assert all(f.code == "JAX000" and f.message.startswith("cannot analyse") for f in findings), findings
    else:
        assert findings == []


@pytest.mark.parametrize(
    "source, path",
    [
        *((param.values[0], "x.py") for param in COMPILER_REFUSES),
        ("def f(:\n    pass\n", "x.py"),
        (PY312, "x.py"),
        (BUGGY, "x.py"),
        ('import re\nP = re.compile("\\d+")\n', "x.py"),  # an invalid escape: a warning, not an error
        ("x = 1\x00\n", "x.py"),
        ("await g()\n", "x.py"),
        ("await g()\n", "cells.ipynb"),  # a notebook's cells run in an event loop
        (_long_sum(1500), "x.py"),  # `ast.parse` gives up on it from Python 3.12 on; `compile` does not
    ],
)
def test_the_text_parsed_once_has_the_verdict_of_the_text_compiled(source: str, path: str):
    """`parsed` gives the reader Python's tree and the verdict `syntax_error_of` gives."""
    tree, problem = parsed(source, path)
    assert problem == syntax_error_of(source, path)
    with deep_recursion(), warnings.catch_warnings():  # as the reader parses
        warnings.simplefilter("ignore")
        try:
            expected = ast.dump(ast.parse(source)) if problem is None else None
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            expected = None
        assert (ast.dump(tree) if tree is not None else None) == expected
