"""The one reader of facts, Python's `ast`: it reads every construct and
every file Python accepts, and places what it finds where LibCST, on which
fixes and ranges are built, places the same nodes."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

import jaxcheck.extraction.ast_reader as ast_reader
from jaxcheck.extraction import facts_from_source
from jaxcheck.loading.syntax import syntax_error_of
from helpers import installed, library_files


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
    "a parenthesized tuple in a subscript": "from typing import Optional\ndef f(x: Optional[(A, B)]): ...\ny = d[(a, b)]\n",
    "a call in a comprehension's target": "xs = [1 for f(a).b in c]\n",
}


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_every_call_is_where_libcst_places_it(name: str) -> None:
    """The facts' positions are LibCST's: each call found starts where a LibCST
    `Call` node starts (character columns, grouping parentheses counted)."""
    text = SNIPPETS[name]
    facts = facts_from_source(text, "m.py", "pkg.m", False)
    wrapper = MetadataWrapper(cst.parse_module(text))
    starts = {
        (where.start.line, where.start.column + 1)
        for node, where in wrapper.resolve(PositionProvider).items()
        if isinstance(node, cst.Call)
    }
    found = {(call.location.line, call.location.column) for _, call in facts.calls}
    if sys.version_info < (3, 12) and "f-string" in name:
        return  # before 3.12, a call Python misplaces inside an f-string is placed at the string (below)
    assert found <= starts


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 places nodes inside f-strings right")
def test_a_call_python_misplaces_inside_an_f_string_is_placed_at_the_string() -> None:
    text = 'x = f"{g(a), b}"\n'  # before 3.12 `ast` puts the tuple at the brace, the parenthesis it adds
    facts = facts_from_source(text, "m.py", "m", False)
    assert [(call.location.line, call.location.column) for _, call in facts.calls] == [(1, 5)]


@pytest.mark.slow
@pytest.mark.parametrize("package", ["equinox", "optax", "flax", "jax"])
def test_every_file_python_accepts_is_read(package: str) -> None:
    installed(package)
    read = 0
    for path in library_files(package):
        text = path.read_text(encoding="utf-8")
        if syntax_error_of(text, str(path)) is None:
            facts_from_source(text, str(path), path.stem, path.name == "__init__.py")
            read += 1
    assert read > 20


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
