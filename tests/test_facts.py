"""Unit tests of the facts layer: source text -> `ModuleFacts` (names resolved)."""

from __future__ import annotations

import pickle
import textwrap
from pathlib import Path

import pytest

from jaxcheck import facts as f
from jaxcheck.extraction import facts_from_source


def facts(src: str, module: str = "pkg.m", is_package: bool = False) -> f.ModuleFacts:
    return facts_from_source(textwrap.dedent(src), "m.py", module, is_package)


def call_refs(module: f.ModuleFacts) -> list[str]:
    return [str(call.ref) for _, call in module.calls]


def function(module: f.ModuleFacts, qualname: str) -> f.FunctionFacts:
    (found,) = [function for function in module.functions if function.qualname == qualname]
    return found


def cls(module: f.ModuleFacts, qualname: str) -> f.ClassFacts:
    (found,) = [cls for cls in module.classes if cls.qualname == qualname]
    return found


def plain(value):
    """Refs as their text (`pkg.m.f:car`), None as "", through tuples and lists: for readable expectations."""
    if isinstance(value, f.Ref):
        return str(value)
    if value is None:
        return ""
    if isinstance(value, (tuple, list)):
        return type(value)(plain(item) for item in value)
    if isinstance(value, f.Parameter):
        return f.Parameter(value.name, value.kind, plain(value.annotation))
    return value


def loc(line: int, column: int) -> f.Location:
    return f.Location(line, column)


def reads(function_facts: f.FunctionFacts, parameter: str) -> tuple[tuple[str, ...], bool]:
    """(attributes read, used opaquely) for a parameter; no record means no use."""
    use = function_facts.parameter_use(parameter)
    return ((), False) if use is None else (use.attributes, use.opaque)


# Imports and aliases.

@pytest.mark.parametrize(
    "src, ref",
    [
        ("import jax.numpy as jnp\njnp.array(1)\n", "jax.numpy.array"),
        ("import jax.numpy\njax.numpy.zeros(1)\n", "jax.numpy.zeros"),
        ("from jax import numpy as jnp\njnp.ones(1)\n", "jax.numpy.ones"),
        ("from jax import jit as J\nJ(print)\n", "jax.jit"),
        ("from jax import jit\njit(print)\n", "jax.jit"),
        ("import jax as jx\njx.jit(print)\n", "jax.jit"),
        ("import jax\njit = jax.jit\njit(print)\n", "jax.jit"),
        ("import jax\njit = jax.jit\nj2 = jit\nj2(print)\n", "jax.jit"),
        ("import functools as ft\nft.partial(print)\n", "functools.partial"),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from jax import jit\njit(1)\n", "jax.jit"),
        ("try:\n    import numpy as np\nexcept ImportError:\n    np = None\nnp.zeros(1)\n", "numpy.zeros"),
        ("def g():\n    from jax import jit\n    jit(g)\n", "jax.jit"),
    ],
)
def test_import_alias_resolution(src, ref):
    assert call_refs(facts(src)) == [ref]


def test_import_inside_a_function_is_local_to_it():
    module = facts("def g():\n    from jax import jit\n    return 1\ndef h():\n    jit(h)\n")
    assert call_refs(module) == ["pkg.m.jit"]


def test_parameter_shadows_an_import():
    module = facts("import jax\ndef g(jax):\n    jax.jit(g)\n")
    assert call_refs(module) == ["pkg.m.g:jax.jit"]


@pytest.mark.parametrize(
    "src, module, is_package, ref",
    [
        ("from .settings import Config\nConfig(1)\n", "pkg.m", False, "pkg.settings.Config"),
        ("from .settings import Config\nConfig(1)\n", "pkg", True, "pkg.settings.Config"),
        ("from . import sibling\nsibling.g(1)\n", "pkg.m", False, "pkg.sibling.g"),
        ("from .. import x\nx(1)\n", "pkg.sub", True, "pkg.x"),
        ("from . import y\ny(1)\n", "pkg.sub", True, "pkg.sub.y"),
        ("from ..base import Base\nBase(1)\n", "pkg.sub.m", False, "pkg.base.Base"),
        ("from ...top import T as U\nU(1)\n", "a.b.c.m", False, "a.top.T"),
        ("from .settings import Config as C\nC(1)\n", "pkg.sub.m", False, "pkg.sub.settings.Config"),
    ],
)
def test_relative_imports(src, module, is_package, ref):
    assert call_refs(facts(src, module, is_package)) == [ref]


@pytest.mark.parametrize(
    "src, module, is_package, wrong",
    [
        ("from .. import x\nx(1)\n", "pkg", True, "x"),
        ("from ..base import Base\nBase(1)\n", "pkg.m", False, "base.Base"),
        ("from . import x\nx(1)\n", "m", False, "x"),
    ],
)
def test_relative_import_above_the_top_level_is_not_resolved(src, module, is_package, wrong):
    # Python raises ImportError here; jaxcheck must not invent a top-level module.
    assert call_refs(facts(src, module, is_package)) != [wrong]


# Local refs and builtins.

def test_local_refs():
    module = facts(
        """
        class Vehicle:
            def __init__(self, n):
                self.n = n

        def f(x):
            car = Vehicle(x)
            def g():
                inner = list()
                return car
            return car

        top = Vehicle(1)
        """
    )
    assert plain([(b.ref, b.value.ref, b.location.line) for b in module.bindings]) == [
        ("pkg.m.f:car", "pkg.m.Vehicle", 7),
        ("pkg.m.f.g:inner", "builtins.list", 9),
        ("pkg.m.top", "pkg.m.Vehicle", 13),
    ]
    returns = function(module, "pkg.m.f.g").returns
    assert plain([value.ref for value in returns]) == ["pkg.m.f:car"]
    assert plain([w.target for w in module.attribute_writes]) == ["pkg.m.Vehicle.__init__:self"]


def test_builtins_and_shadowed_builtins():
    module = facts(
        """
        a = list()
        b = dict()
        def f():
            c = set()
        tuple = make
        d = tuple()
        """
    )
    refs = plain([b.value.ref for b in module.bindings if b.value.kind == f.CALL])
    assert refs == ["builtins.list", "builtins.dict", "builtins.set", "pkg.m.tuple"]


def test_calls_of_builtins_are_not_kept():
    # A builtin is never a transformed function, a class or a method of the project;
    # a call without arguments is kept (`obj.reset()` changes the object).
    module = facts("list([1])\nprint(2)\nmake()\nmake(3)\n")
    assert call_refs(module) == ["pkg.m.make", "pkg.m.make"]


def test_global_statement_binds_in_the_module():
    module = facts("cfg = None\ndef f():\n    global cfg\n    cfg = list()\n    cfg.append(1)\n")
    assert plain([b.ref for b in module.bindings]) == ["pkg.m.cfg", "pkg.m.cfg"]
    assert call_refs(module) == ["pkg.m.cfg.append"]
    assert plain(module.bindings[1].value.ref) == "builtins.list"


def test_nonlocal_statement_binds_in_the_enclosing_function():
    module = facts("def f():\n    x = None\n    def g():\n        nonlocal x\n        x = list()\n    g()\n    return x\n")
    assert plain([b.ref for b in module.bindings]) == ["pkg.m.f:x", "pkg.m.f:x"]


def test_class_body_names_are_not_visible_in_methods():
    module = facts(
        """
        class A:
            import jax
            jax.jit(1)
            def m(self):
                jax.jit(2)
        """
    )
    assert call_refs(module) == ["jax.jit", "pkg.m.jax.jit"]


# Class facts.

def test_class_facts():
    module = facts(
        """
        import abc
        import dataclasses
        import typing
        from typing import Generic, TypeVar, Optional
        from .base import Base
        import numpy as np

        T = TypeVar("T")

        # a comment
        @dataclasses.dataclass(frozen=True, eq=False)
        class Vehicle(Base, Generic[T], typing.Protocol, metaclass=abc.ABCMeta):
            \"\"\"A vehicle.\"\"\"
            wheels: int = 4
            owner: Optional["Base"] = None
            weights: np.ndarray
            label = "car"
            __hash__ = None

            def honk(self):
                def inner():
                    return 1
                return inner()

            @staticmethod
            def make():
                return Vehicle()

            class Inner:
                def deep(self):
                    return 2
        """
    )
    vehicle = cls(module, "pkg.m.Vehicle")
    assert vehicle.name == "Vehicle"
    assert vehicle.location == loc(13, 1)
    assert plain(vehicle.bases) == ("pkg.base.Base", "typing.Generic", "typing.Protocol")
    assert plain(vehicle.keywords) == (("metaclass", "abc.ABCMeta"),)
    (decorator,) = vehicle.decorators
    assert decorator.kind == f.CALL and plain(decorator.ref) == "dataclasses.dataclass"
    assert [(key, value.kind, value.literal) for key, value in decorator.keywords] == [
        ("frozen", f.CONSTANT, True),
        ("eq", f.CONSTANT, False),
    ]
    assert vehicle.methods == ("pkg.m.Vehicle.honk", "pkg.m.Vehicle.make")
    assert plain([(a.name, a.location.line, a.annotation) for a in vehicle.attributes]) == [
        ("wheels", 15, ("builtins.int",)),
        ("owner", 16, ("pkg.base.Base",)),
        ("weights", 17, ("numpy.ndarray",)),
        ("label", 18, ()),
        ("__hash__", 19, ()),
    ]
    values = {a.name: a.value for a in vehicle.attributes}
    assert values["wheels"].literal == 4
    assert values["weights"] is None
    assert values["label"].literal == "car"
    assert values["__hash__"].kind == f.CONSTANT and values["__hash__"].literal is None
    assert cls(module, "pkg.m.Vehicle.Inner").methods == ("pkg.m.Vehicle.Inner.deep",)
    assert function(module, "pkg.m.Vehicle.honk").class_qualname == "pkg.m.Vehicle"
    assert function(module, "pkg.m.Vehicle.honk.inner").class_qualname == ""
    assert plain([d.ref for d in function(module, "pkg.m.Vehicle.make").decorators]) == ["builtins.staticmethod"]


def test_class_bases_that_are_not_names():
    module = facts(
        """
        import collections
        class A(collections.namedtuple("A", "x y")):
            pass
        class B(object):
            pass
        class C(A, B):
            pass
        """
    )
    assert plain(cls(module, "pkg.m.A").bases) == ("",)
    assert plain(cls(module, "pkg.m.B").bases) == ("builtins.object",)
    assert plain(cls(module, "pkg.m.C").bases) == ("pkg.m.A", "pkg.m.B")


def test_bare_decorator_is_a_name_value():
    module = facts("from dataclasses import dataclass\n@dataclass\nclass A:\n    x: int\n")
    (decorator,) = cls(module, "pkg.m.A").decorators
    assert (decorator.kind, plain(decorator.ref)) == (f.NAME, "dataclasses.dataclass")


# Function facts.

def test_parameters_kinds_and_annotations():
    module = facts(
        """
        from typing import Optional, Union, Annotated
        import typing
        class Vehicle: ...
        class Road: ...

        def f(a, b: Vehicle, /, c: "Vehicle", d: Optional[Vehicle] = None, *args: Road,
              e: Vehicle | None, g: "Vehicle | Road" = None, h: Union[Vehicle, Road, None] = None,
              i: typing.Optional["Road"] = None, j: Annotated[Vehicle, "meta"] = None,
              k: list[Vehicle] = (), l: None = None, **kwargs: int):
            pass
        """
    )
    assert plain(function(module, "pkg.m.f").parameters) == (
        f.Parameter("a", "positional", ()),
        f.Parameter("b", "positional", ("pkg.m.Vehicle",)),
        f.Parameter("c", "positional", ("pkg.m.Vehicle",)),
        f.Parameter("d", "positional", ("pkg.m.Vehicle",)),
        f.Parameter("args", "vararg", ("pkg.m.Road",)),
        f.Parameter("e", "keyword", ("pkg.m.Vehicle",)),
        f.Parameter("g", "keyword", ("pkg.m.Vehicle", "pkg.m.Road")),
        f.Parameter("h", "keyword", ("pkg.m.Vehicle", "pkg.m.Road")),
        f.Parameter("i", "keyword", ("pkg.m.Road",)),
        f.Parameter("j", "keyword", ("pkg.m.Vehicle",)),
        f.Parameter("k", "keyword", ("builtins.list",)),
        f.Parameter("l", "keyword", ()),
        f.Parameter("kwargs", "varkw", ("builtins.int",)),
    )


def test_function_location_and_qualname_with_decorators_and_comments():
    module = facts(
        """
        import jax

        # leading comment
        @jax.jit
        # between decorator and def
        @staticmethod
        def f(x):
            return x

        class A:
            # comment
            @property
            def p(self):
                return 1

            async def q(self):
                return 2
        """
    )
    f_ = function(module, "pkg.m.f")
    assert (f_.name, f_.location) == ("f", loc(8, 1))
    assert plain([d.ref for d in f_.decorators]) == ["jax.jit", "builtins.staticmethod"]
    assert [d.location.line for d in f_.decorators] == [5, 7]
    assert function(module, "pkg.m.A.p").location == loc(14, 5)
    assert function(module, "pkg.m.A.q").location == loc(17, 5)


def test_parameter_uses():
    module = facts(
        """
        def f(cfg, other, unused, passed, stored, returned, checked, kw, nested, lam):
            a = cfg.scale + cfg.offset.inner
            if other is None or other is not None:
                pass
            print(passed)
            x = stored
            g(key=1, kw=kw.value)
            def inner():
                return nested.depth
            h = lambda: lam.size
            k = lambda lam: lam
            assert checked.ok
            return returned
        """
    )
    f_ = function(module, "pkg.m.f")
    assert reads(f_, "cfg") == (("offset", "scale"), False)
    assert reads(f_, "other") == ((), False)  # `is None` / `is not None` are not reads
    assert reads(f_, "unused") == ((), False)
    assert reads(f_, "passed") == ((), False)
    assert plain(f_.parameter_use("passed").passed_to) == ("builtins.print",)  # passed on: what reads it is known
    assert reads(f_, "stored") == ((), True)
    assert reads(f_, "returned") == ((), True)
    assert reads(f_, "checked") == (("ok",), False)
    assert reads(f_, "kw") == (("value",), False)  # the keyword `kw=` is not a use
    assert reads(f_, "nested") == (("depth",), False)  # nested functions count
    assert reads(f_, "lam") == (("size",), False)  # the shadowing lambda parameter does not
    assert function(module, "pkg.m.f.inner").uses == ()


def test_parameter_written_not_read_is_not_a_use():
    module = facts("def f(obj):\n    obj.x = 1\n")
    assert reads(function(module, "pkg.m.f"), "obj") == ((), False)


def test_is_none_with_the_parameter_on_the_right_is_not_a_use():
    module = facts("def f(cfg, other):\n    return None is cfg or other is cfg\n")
    assert reads(function(module, "pkg.m.f"), "cfg") == ((), False)


def test_comprehension_variable_shadows_the_parameter():
    module = facts("def f(v, xs):\n    return [v.n for v in xs]\n")
    assert reads(function(module, "pkg.m.f"), "v") == ((), False)


def test_returns_of_a_function():
    module = facts("def f(self):\n    if self:\n        return id(self)\n    return None\n")
    returns = function(module, "pkg.m.f").returns
    assert plain([(value.kind, value.ref) for value in returns]) == [(f.CALL, "builtins.id"), (f.CONSTANT, "")]


# Attribute writes.

def test_attribute_writes():
    module = facts(
        """
        class Vehicle:
            def __init__(self, n):
                self.n = n
                object.__setattr__(self, "frozen", n)

            def bump(self):
                self.n += 1
                setattr(self, "dyn", 2)

        def mutate(obj, name):
            obj.x = 1
            setattr(obj, "y", 2)
            setattr(obj, name, 3)
            del obj.z
            obj.count += 1
            obj.inner.deep = 4
            (a, obj.w) = (1, 2)

        car = Vehicle(1)
        car.n = 5
        """
    )
    assert plain([(w.target, w.attribute, w.location.line, w.location.column, w.function) for w in module.attribute_writes]) == [
        ("pkg.m.Vehicle.__init__:self", "n", 4, 9, "pkg.m.Vehicle.__init__"),
        ("pkg.m.Vehicle.__init__:self", "frozen", 5, 9, "pkg.m.Vehicle.__init__"),
        ("pkg.m.Vehicle.bump:self", "n", 8, 9, "pkg.m.Vehicle.bump"),
        ("pkg.m.Vehicle.bump:self", "dyn", 9, 9, "pkg.m.Vehicle.bump"),
        ("pkg.m.mutate:obj", "x", 12, 5, "pkg.m.mutate"),
        ("pkg.m.mutate:obj", "y", 13, 5, "pkg.m.mutate"),
        ("pkg.m.mutate:obj", "*", 14, 5, "pkg.m.mutate"),
        ("pkg.m.mutate:obj", "z", 15, 9, "pkg.m.mutate"),
        ("pkg.m.mutate:obj", "count", 16, 5, "pkg.m.mutate"),
        ("pkg.m.mutate:obj.inner", "deep", 17, 5, "pkg.m.mutate"),
        ("pkg.m.mutate:obj", "w", 18, 9, "pkg.m.mutate"),
        ("pkg.m.car", "n", 21, 1, ""),
    ]
    values = [w.value for w in module.attribute_writes]
    assert plain(values[0].ref) == "pkg.m.Vehicle.__init__:n"  # self.n = n
    assert values[2] is None  # augmented assignment
    assert values[4].literal == 1
    assert values[5].literal == 2
    assert values[7] is None  # del


# Literal values.

@pytest.mark.parametrize(
    "expression, kind, literal",
    [
        ("(0, -1)", f.TUPLE, (0, -1)),
        ("[0, 1]", f.LIST, (0, 1)),
        ("0", f.CONSTANT, 0),
        ("-1", f.CONSTANT, -1),
        ("'v'", f.CONSTANT, "v"),
        ('("a", "b")', f.TUPLE, ("a", "b")),
        ("None", f.CONSTANT, None),
        ("True", f.CONSTANT, True),
        ("(0,)", f.TUPLE, (0,)),
        ("()", f.TUPLE, ()),
        ("(0, n)", f.TUPLE, None),
        ("n", f.NAME, None),
        ("{0}", f.SET, (0,)),
        ("{'a': 0}", f.DICT, None),
        ("[i for i in r]", f.LIST, None),
    ],
)
def test_literal_values(expression, kind, literal):
    module = facts(f"import jax\njax.jit(print, static_argnums={expression})\n")
    (_, call), = module.calls
    value = call.keyword("static_argnums")
    assert (value.kind, value.literal) == (kind, literal)
    if kind != f.TUPLE:
        assert value.location == loc(2, 31)


@pytest.mark.parametrize("expression", ["(0, -1)", "(0,)", "()"])
def test_parenthesized_tuple_location_is_its_opening_parenthesis(expression):
    module = facts(f"import jax\njax.jit(print, static_argnums={expression})\n")
    (_, call), = module.calls
    assert call.keyword("static_argnums").location == loc(2, 31)


def test_call_values():
    module = facts("import jax\ng = jax.jit(f, static_argnums=1)(x, *rest, k=2, **more)\n")
    outer = module.bindings[0].value
    assert outer.kind == f.CALL and outer.ref is None
    assert outer.func is not None and plain(outer.func.ref) == "jax.jit"
    assert plain([arg.ref for arg in outer.func.args]) == ["pkg.m.f"]
    assert outer.func.keyword("static_argnums").literal == 1
    assert [(a.kind, plain(a.ref), a.literal) for a in outer.args] == [(f.NAME, "pkg.m.x", None), (f.OTHER, "", "*")]
    assert [key for key, _ in outer.keywords] == ["k", "**"]


# Locations.

def test_locations_are_one_based_node_starts():
    module = facts(
        """
        import jax

        @jax.jit
        def f(x):
            return x

        if True:
            class A:
                def m(self):
                    self.a = (  A(1))
        """
    )
    # Line 1 is the blank line the triple-quoted source starts with.
    assert function(module, "pkg.m.f").location == loc(5, 1)
    assert cls(module, "pkg.m.A").location == loc(9, 5)
    assert function(module, "pkg.m.A.m").location == loc(10, 9)
    (write,) = module.attribute_writes
    assert write.location == loc(11, 13)
    assert write.value.location == loc(11, 25)  # the call inside the parentheses, as in ast


def test_locations_with_crlf_and_tabs():
    src = (
        'X = """a\r\nb\nc"""\r\n'  # a string spanning lines with mixed line ends
        "import jax\r\n"
        "\r\n"
        "# comment\r\n"
        "@jax.jit\r\n"
        "# another\r\n"
        "def f(x):\r\n"
        "\treturn x\r\n"
        "\r\n"
        "class A:\r\n"
        "\t# c\r\n"
        "\t@staticmethod\r\n"
        "\tdef g(y):\r\n"
        "\t\ty.q = 1\r\n"
        "\r\n"
        "if True:\r\n"
        "\tclass B: pass\r\n"
        "\tw = A(   1)\r\n"
        "v = [A(2),\r\n"
        "\tA(3)]\r\n"
    )
    module = facts_from_source(src, "m.py", "pkg.m")
    assert function(module, "pkg.m.f").location == loc(9, 1)
    assert cls(module, "pkg.m.A").location == loc(12, 1)
    assert function(module, "pkg.m.A.g").location == loc(15, 2)
    assert cls(module, "pkg.m.B").location == loc(19, 2)
    (write,) = module.attribute_writes
    assert (write.location, write.value.location) == (loc(16, 3), loc(16, 9))
    calls = {(call.location.line, call.location.column) for _, call in module.calls if plain(call.ref) == "pkg.m.A"}
    assert calls == {(20, 6), (21, 6), (22, 2)}
    w = next(b for b in module.bindings if plain(b.ref) == "pkg.m.w")
    assert w.location == loc(20, 2)
    assert w.value.args[0].location == loc(20, 11)


def test_a_binding_inside_a_branch_or_loop_is_conditional_and_arithmetic_keeps_its_operands():
    module = facts(
        """
        import numpy as np
        def f(w=None, items=()):
            if w is None:
                w = np.ones(3)
            with open("x") as handle:
                n = 2
            for item in items:
                last = item
            total = g(w * 2, 3 * np.ones(n))
        """
    )
    conditional = {b.ref.name: b.conditional for b in module.bindings}
    assert conditional == {"w": True, "handle": False, "n": False, "item": True, "last": True, "total": False}
    call = next(b.value for b in module.bindings if b.ref.name == "total")
    product = call.args[1]  # an argument of an argument: kept, as the operands of arithmetic are
    assert product.literal == f.ARITHMETIC and plain(product.args[1].ref) == "numpy.ones"


def test_locations_with_lone_cr_line_endings():
    src = "import jax\r@jax.jit\rdef f(x):\r    return x\rclass A:\r    pass\r"
    module = facts_from_source(src, "m.py", "pkg.m")
    assert function(module, "pkg.m.f").location == loc(3, 1)
    assert cls(module, "pkg.m.A").location == loc(5, 1)


FIXTURES = sorted((Path(__file__).resolve().parent.parent / "fixtures").glob("JAX*/*.py"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_the_facts_of_every_fixture_survive_the_cache(path):
    """Every kind of fact the fixtures give (fallbacks, declared aux names, ...) comes
    back from the cache equal, so a warm run judges what a cold one does."""
    facts = facts_from_source(path.read_text(encoding="utf-8"), str(path), f"pkg.{path.stem}")
    assert pickle.loads(pickle.dumps(facts)) == facts
