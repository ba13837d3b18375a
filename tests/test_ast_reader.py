"""The ast reader gives LibCST's facts exactly, so the loader reads every
module with it first; LibCST reads what it declines, and the files a finding
is in or points at, whose facts it decides."""

from __future__ import annotations

import ast
import os
import re
import sys
from pathlib import Path

import pytest

import jaxcheck.extraction as extraction
import jaxcheck.extraction.ast_reader as ast_reader
from jaxcheck.config import find_config
from jaxcheck.engine import check
from jaxcheck.extraction import facts_from_source, quick_facts
from jaxcheck.extraction.ast_reader import Declined, ast_facts
from jaxcheck.loading.syntax import syntax_error_of
from helpers import installed, library_files



def _module_of(path: Path, root: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def _compare(paths: list[Path], root: Path) -> tuple[int, list[str], list[str]]:
    """(files compared, files whose facts differ, files declined)."""
    differ, declined = [], []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if syntax_error_of(text, str(path)) is not None:
            continue
        module, is_package = _module_of(path, root)
        expected = facts_from_source(text, str(path), module, is_package)
        try:
            found = ast_facts(text, str(path), module, is_package)
        except Declined:
            declined.append(str(path))
            continue
        if found != expected:
            differ.append(str(path))
    return len(paths), differ, declined


@pytest.mark.parametrize("package", ["equinox", "optax", "flax", "jax"])
def test_the_same_facts_as_libcst_on_the_installed_libraries(package: str) -> None:
    root = installed(package)
    paths = library_files(package)
    compared, differ, declined = _compare(paths, root)
    assert compared > 20
    assert differ == []
    assert len(declined) <= max(2, compared // 50), declined  # measured: 7 of 927 files on Python 3.11


SNIPPETS = {
    "non-ASCII columns": "x = 'é'; y = f(1)\nz = {'ñ': g(a, b=2)}\n",
    "grouping parentheses around a tuple": "x = ((a, b))\nreturn_ = f((a, b))\ny = ((1, 2), (3, 4))\n"
    "def h():\n    return ((a, g()))\n",
    "a tuple on a line of its own": "x = f(\n    (1, 2),\n)\ny = (\n    (a, b)\n)\nz = (  # (\n    (a, b)  # )\n)\n",
    "generator expressions": "x = f(a for a in b)\ny = ( g(a) for a in b)\nz = sum((a) for a in b)\n"
    "t = tuple(getattr(self, n) for n in self.names)\n",
    "decorated and async definitions": "@jax.jit\nasync def f(x):\n    await g(x)\n\n@dataclass\nclass A(B, metaclass=M):\n"
    "    x: int = field(default=1)\n    y: 'Optional[C]'\n",
    "branches in their order": "def f(p):\n    if a(p):\n        b(p)\n    elif c():\n        d()\n    else:\n        e()\n"
    "    for i in g(p):\n        h(i)\n    else:\n        k()\n    while m():\n        n()\n"
    "    try:\n        o()\n    except (E, F) as err:\n        q(err)\n    else:\n        r()\n    finally:\n        s()\n",
    "except names": "try:\n    pass\nexcept (E) as e:\n    g(e)\nexcept E as \\\n  f:\n    pass\n",
    "match statements": "match f(x):\n    case [a, b] if g(a):\n        h(b)\n    case {'k': v}:\n        y = v\n",
    "strings": "x = 'a' 'b'\ny = f'{g(1)}' 'c'\nz = {'a' 'b': 1, 'c': 2, b'd': 3}\nw = ...\nv = -1.5\nu = (True, None)\n",
    "f-strings holding calls": "x = f'{g(1)} and {h(a, b)!r:>{w(2)}}'\ny = f'''\n{k(3)}'''\n",
    "lambdas, comprehensions and walrus": "def f(p, *args, q=1, **kw):\n    g = lambda a, b=p.x: a.y + p.z\n"
    "    xs = [p.w for p.w in ys if (n := k(p))]\n    d = {a: b for a, b in p.items()}\n    return g, xs, d\n",
    "calls with stars and keywords": "f(a, *b, c=1, **d)\nf(x=1, *y)\ng(*a)(b)\nsuper().__hash__()\n"
    "jax.jit(jax.vmap(fn), static_argnums=(0, 1))\n",
    "comparisons": "def f(p, q):\n    if p is None or q is not p:\n        return p == q\n",
    "scopes": "import a.b as c\nfrom . import d\nfrom .e import f as g\nx = c.h\nclass K:\n    y = x\n"
    "    def m(self):\n        global x\n        x = 1\n        def inner():\n            nonlocal_ = self.y\n"
    "            return nonlocal_\n        return inner\n",
}


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_the_same_facts_as_libcst_on_each_construct(name: str) -> None:
    text = SNIPPETS[name]
    assert ast_facts(text, "m.py", "pkg.m", False) == facts_from_source(text, "m.py", "pkg.m", False)


def test_the_node_classes_compared_by_identity_have_no_subclasses_ast_makes() -> None:
    """The reader compares `type(node) is ast.Name` (cheaper than isinstance): right only
    while `ast.parse` makes no instance of a subclass. Constant's only subclasses are
    its deprecated aliases (`ast.Num`...), which the parser never makes."""
    names = set(re.findall(r"\bis (?:not )?ast\.(\w+)", Path(ast_reader.__file__).read_text(encoding="utf-8")))
    groups = (ast_reader._CONTAINERS, ast_reader._COMPREHENSIONS, ast_reader._IDENTITY, ast_reader._COMPOUNDS)
    names |= {cls.__name__ for group in (*groups, ast_reader._VALUE_STEPS, ast_reader._KINDS) for cls in group}
    assert len(names) > 30
    assert [name for name in sorted(names) if getattr(ast, name).__subclasses__()] in ([], ["Constant"])
    made = ast.parse("1, 1.5, 1j, 's', b'b', True, None, ...").body[0].value.elts
    assert {type(node) for node in made} == {ast.Constant}


def test_the_children_read_are_the_child_nodes_in_field_order() -> None:
    """`_children` reads the fields itself (a cached list per class) instead of `ast.iter_child_nodes`;
    only a dict's keys and values interleave, as LibCST's elements do."""
    tree = ast.parse(Path(ast_reader.__file__).read_text(encoding="utf-8") + "".join(SNIPPETS.values()))
    compared = 0
    for node in ast.walk(tree):
        expected = [child for child in ast.iter_child_nodes(node) if not isinstance(child, ast_reader._OPERATORS)]
        if type(node) is ast.Dict:
            expected = [part for key, value in zip(node.keys, node.values) for part in (key, value) if part is not None]
        assert list(ast_reader._children(node)) == expected, ast.dump(node)
        compared += 1
    assert compared > 1000


def test_a_declined_file_is_read_by_libcst() -> None:
    # LibCST reads one index, a tuple; `ast` cannot tell it from two indexes.
    text = "from typing import Optional\ndef f(x: Optional[(A, B)]): ...\n"
    with pytest.raises(Declined):
        ast_facts(text, "m.py", "m", False)
    assert quick_facts(text, "m.py", "m", False) is None


def test_an_f_string_whose_positions_python_computes_wrong_is_declined_before_3_12() -> None:
    text = 'x = f"{g(a), b}"\n'  # before 3.12 the tuple starts at the brace, the parenthesis `ast` adds
    expected = facts_from_source(text, "m.py", "m", False)
    if sys.version_info < (3, 12):
        with pytest.raises(Declined):
            ast_facts(text, "m.py", "m", False)
    else:
        assert ast_facts(text, "m.py", "m", False) == expected


@pytest.mark.slow
def test_the_same_findings_with_and_without_the_ast_reader_on_real_code(monkeypatch) -> None:
    paths = [str(installed("equinox")), str(installed("flax"))]
    read, exact = [], []

    def counted(*args):
        read.append(args[1])
        return ast_facts(*args)

    monkeypatch.setattr(extraction, "ast_facts", counted)
    monkeypatch.setattr(extraction, "extract_facts", _spied(exact))
    with_reader = check(paths, find_config, jobs=1, use_cache=False)
    assert len(read) > 100  # every module read, the ones that can hold a finding too
    assert len(exact) < len(read) // 10  # LibCST read the declined and those with findings only
    monkeypatch.setenv("JAXCHECK_AST_READER", "0")
    read.clear()
    without = check(paths, find_config, jobs=1, use_cache=False)
    assert read == []
    assert with_reader.files == without.files > 100
    assert with_reader.findings == without.findings


def _spied(into: list):
    """`extract_facts` (LibCST's reading), each path read added to `into`."""
    real = extraction.extract_facts

    def spy(tree, path, *args):
        into.append(os.path.normpath(path))
        return real(tree, path, *args)

    return spy


def test_every_file_a_finding_is_in_or_points_at_is_read_by_libcst(monkeypatch) -> None:
    exact: list[str] = []
    monkeypatch.setattr(extraction, "extract_facts", _spied(exact))
    fixtures = os.path.join(os.path.dirname(__file__), os.pardir, "fixtures")
    result = check([fixtures], find_config, jobs=1, use_cache=False)
    places = {finding.path for finding in result.findings if finding.code != "JAX001"}
    places |= {place.path for finding in result.findings for place in finding.related}
    assert len(places) > 40
    assert {os.path.normpath(os.path.relpath(os.path.abspath(place))) for place in places} <= set(exact)
    assert len(set(exact)) < len(result.analysed)  # the twins without findings were not


PASSING = """
import dataclasses
import jax


@dataclasses.dataclass(frozen=True)
class Scaler:
    factor: float


def scale(x, scaler):
    return x * scaler.factor


def run(x):
    return jax.jit(scale, static_argnums=1)(x, Scaler(2.0))
"""


def test_libcst_s_facts_decide_where_the_readers_disagree(tmp_path: Path, monkeypatch) -> None:
    # A reader gone wrong: it reads the class as mutable, so the model finds JAX106.
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "m.py").write_text(PASSING)
    monkeypatch.chdir(tmp_path)
    # It reads a text of its own, not the tree parsed with Python's verdict.
    wrong = lambda text, path, module, is_package, tree=None: ast_facts(  # noqa: E731
        text.replace("(frozen=True)", ""), path, module, is_package
    )
    monkeypatch.setattr(extraction, "ast_facts", wrong)
    assert [finding.code for finding in check(["."], find_config, jobs=1, use_cache=False).findings] == []
    monkeypatch.setattr(extraction, "extract_facts", lambda tree, *args: wrong(PASSING, *args))
    assert [finding.code for finding in check(["."], find_config, jobs=1, use_cache=False).findings] == ["JAX106"]


def test_facts_kept_from_the_ast_reader_are_read_by_libcst_when_a_finding_comes_to_them(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "lib.py").write_text("import dataclasses\n\n\n@dataclasses.dataclass\nclass Dial:\n    turns: int = 1\n")
    app = tmp_path / "app.py"
    app.write_text("import jax\n\nfrom lib import Dial\n\n\ndef turned(x, dial):\n    return x * dial.turns\n")
    monkeypatch.chdir(tmp_path)
    exact: list[str] = []
    monkeypatch.setattr(extraction, "extract_facts", _spied(exact))
    assert check(["."], find_config, jobs=1).findings == []
    assert exact == []  # both kept in the cache as `ast` read them
    app.write_text(app.read_text() + "\n\ndef turn(x):\n    return jax.jit(turned, static_argnums=1)(x, Dial())\n")
    (finding,) = check(["."], find_config, jobs=1).findings
    assert (os.path.normpath(finding.path), finding.code) == ("lib.py", "JAX106")
    assert sorted(exact) == ["app.py", "lib.py"]  # lib.py from the cache, app.py read again
    exact.clear()
    check(["."], find_config, jobs=1)
    assert exact == []  # confirmed once, and kept as LibCST's


STRICT_ONLY = """
import jax


@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, x, names):
        self.x = x
        self.names = list(names)

    def tree_flatten(self):
        return (self.x,), self.names

    @classmethod
    def tree_unflatten(cls, names, children):
        return cls(children[0], names)
"""


def test_a_finding_the_profile_leaves_out_is_not_read_by_libcst_until_it_is_reported(tmp_path: Path, monkeypatch) -> None:
    # A list as aux_data breaks the design standard; nothing here changes it, so only `strict` reports it.
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "box.py").write_text(STRICT_ONLY)
    monkeypatch.chdir(tmp_path)
    exact: list[str] = []
    monkeypatch.setattr(extraction, "extract_facts", _spied(exact))
    assert check(["."], find_config, jobs=1).findings == []
    assert exact == []
    strict = lambda path: find_config(path).with_profile("strict", "the test")  # noqa: E731
    (finding,) = check(["."], strict, jobs=1).findings  # the judgement kept for `default` is not reused
    assert (finding.code, exact) == ("JAX303", ["box.py"])
