"""Every spelling of a jax.jit static position finds the same static use (SPEC 2).

Each test lints one small module in-process and compares the exact set of
(line, code) findings. The class under test is the seed's `Vehicle`: a plain
class with one attribute and no `__hash__`/`__eq__`, so a static use of it is
JAX101 (mutable, and the jitted function reads it) plus JAX102 (identity hash),
both at the `class` line.

Single programs, their findings marked, are case files in `cases/JAX101/`; the
tests here fill templates over spellings.
"""

from __future__ import annotations

import textwrap

import pytest

from helpers import codes_at, line_of, findings_of


def vehicle_static(src: str) -> set[tuple[int, str]]:
    line = line_of(src, "class Vehicle")
    return {(line, "JAX101"), (line, "JAX102")}


VEHICLE = """\
class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels
"""

# (header, definition, call): the definition has `{ann}` after the static
# parameter `v`; the call has `{arg}` where the static argument goes.
SPELLINGS = {
    "jit-factory-decorator": (
        "import jax\n",
        "@jax.jit(static_argnums=0)\ndef f(v{ann}):\n    return v.num_wheels\n",
        "f({arg})",
    ),
    "partial-jax.jit": (
        "import jax\nfrom functools import partial\n",
        "@partial(jax.jit, static_argnums=0)\ndef f(v{ann}):\n    return v.num_wheels\n",
        "f({arg})",
    ),
    "functools.partial-tuple": (
        "import functools\nimport jax\n",
        "@functools.partial(jax.jit, static_argnums=(0,))\ndef f(v{ann}):\n    return v.num_wheels\n",
        "f({arg})",
    ),
    "functools.partial-from-jax-import-jit-list": (
        "import functools\nfrom jax import jit\n",
        "@functools.partial(jit, static_argnums=[0])\ndef f(v{ann}):\n    return v.num_wheels\n",
        "f({arg})",
    ),
    "partial-jit-imported-as-J": (
        "from functools import partial\nfrom jax import jit as J\n",
        "@partial(J, static_argnums=0)\ndef f(v{ann}):\n    return v.num_wheels\n",
        "f({arg})",
    ),
    "import-jax-as-jx-argnames-str": (
        "import jax as jx\n",
        '@jx.jit(static_argnames="v")\ndef f(v{ann}):\n    return v.num_wheels\n',
        "f({arg})",
    ),
    "argnames-tuple": (
        "import jax\n",
        '@jax.jit(static_argnames=("v",))\ndef f(x, v{ann}):\n    return x + v.num_wheels\n',
        "f(1.0, {arg})",
    ),
    "argnames-list": (
        "import jax\n",
        '@jax.jit(static_argnames=["v"])\ndef f(x, v{ann}):\n    return x + v.num_wheels\n',
        "f(1.0, {arg})",
    ),
    "negative-argnums": (
        "import jax\n",
        "@jax.jit(static_argnums=-1)\ndef f(x, v{ann}):\n    return x + v.num_wheels\n",
        "f(1.0, {arg})",
    ),
    "jit-call-bound-to-name": (
        "import jax\n",
        "def f(x, v{ann}):\n    return x + v.num_wheels\ng = jax.jit(f, static_argnums=1)\n",
        "g(1.0, {arg})",
    ),
    "jit-call-called-at-once": (
        "import jax\n",
        "def f(x, v{ann}):\n    return x + v.num_wheels\n",
        "jax.jit(f, static_argnums=1)(1.0, {arg})",
    ),
    "nnx-jit-partial-counts-bound-arguments": (
        "from flax import nnx\n",
        "def f(model, x, v{ann}):\n    return x + v.num_wheels\ng = nnx.jit_partial(f, None, static_argnums=2)\n",
        "g(1.0, {arg})",
    ),
    "nnx-jit-partial-two-bound-argnames": (
        "from flax import nnx\n",
        'def f(model, opt, v{ann}, x):\n    return x + v.num_wheels\ng = nnx.jit_partial(f, None, None, static_argnames="v")\n',
        "g({arg}, 1.0)",
    ),
    "module-alias-jit-equals-jax.jit": (
        "import jax\nfrom functools import partial\njit = jax.jit\n",
        "@partial(jit, static_argnums=0)\ndef f(v{ann}):\n    return v.num_wheels\n",
        "f({arg})",
    ),
}

# How the class of the static value is found: (annotation, statements before
# the call, the argument, whether the call is inside a function).
DISCOVERY = {
    "annotation": (": Vehicle", "", "None", False),
    "constructor-at-call-site": ("", "", "Vehicle(2)", False),
    "module-name-bound-to-constructor": ("", "car = Vehicle(2)\n", "car", False),
    "local-name-bound-to-constructor": ("", "car = Vehicle(2)\n", "car", True),
}


def build(spelling: str, discovery: str, arg: str | None = None) -> str:
    header, definition, call = SPELLINGS[spelling]
    ann, before, default_arg, in_function = DISCOVERY[discovery]
    call = call.format(arg=arg if arg is not None else default_arg)
    if in_function:
        tail = "def main():\n" + textwrap.indent(before + "return " + call + "\n", "    ")
    else:
        tail = before + call + "\n"
    return header + VEHICLE + definition.format(ann=ann) + tail


@pytest.mark.parametrize("discovery", sorted(DISCOVERY))
@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_every_spelling_finds_the_static_vehicle(spelling, discovery):
    src = build(spelling, discovery)
    assert codes_at(src) == vehicle_static(src), src


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_every_spelling_finds_a_list_literal_at_the_static_position(spelling):
    # The Vehicle class is defined but never static: only the list is reported.
    src = build(spelling, "constructor-at-call-site", arg="[1, 2]")
    call_line = len(src.splitlines())
    assert codes_at(src) == {(call_line, "JAX106")}, src


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_every_spelling_with_a_safe_value_is_clean(spelling):
    src = build(spelling, "constructor-at-call-site", arg="(2, 'wheels')")
    assert codes_at(src) == set(), src


# How a parameter annotation names the class.

ANNOTATIONS = [
    pytest.param("", "Vehicle", id="plain"),
    pytest.param("", '"Vehicle"', id="string"),
    pytest.param("from typing import Optional\n", "Optional[Vehicle]", id="Optional"),
    pytest.param("import typing\n", "typing.Optional[Vehicle]", id="typing.Optional"),
    pytest.param("from typing import Optional\n", 'Optional["Vehicle"]', id="Optional-of-string"),
    pytest.param("", "Vehicle | None", id="pep604-union"),
    pytest.param("", "None | Vehicle", id="pep604-union-none-first"),
    pytest.param("", '"Vehicle | None"', id="string-pep604-union"),
    pytest.param("from typing import Union\n", "Union[Vehicle, None]", id="Union"),
    pytest.param("from typing import Annotated\n", 'Annotated[Vehicle, "static"]', id="Annotated"),
    pytest.param(
        "from typing_extensions import Union\n",
        "Union[Vehicle, None]",
        id="typing_extensions.Union",
    ),
]


@pytest.mark.parametrize("imports, annotation", ANNOTATIONS)
def test_annotation_spellings_find_the_class(imports, annotation):
    src = (
        "import jax\n" + imports + VEHICLE
        + f"@jax.jit(static_argnums=0)\ndef f(v: {annotation}):\n    return v.num_wheels\n"
    )
    assert codes_at(src) == vehicle_static(src), src


@pytest.mark.parametrize("annotation", ["Union[int, Vehicle]", "Vehicle | Callable", "Union[Vehicle, Car, None]"])
def test_a_union_of_several_types_does_not_say_which_is_passed(annotation):
    # jax's own `A: Array | Callable` (lobpcg) routes arrays elsewhere with isinstance:
    # only the call sites can tell what reaches the static position.
    src = (
        "import jax\nfrom typing import Callable, Union\n" + VEHICLE + "class Car:\n    pass\n"
        + f"@jax.jit(static_argnums=0)\ndef f(v: {annotation}):\n    return v.num_wheels\n"
    )
    assert codes_at(src) == set(), src


# `self` of a method.

SELF_DECORATORS = [
    pytest.param("@partial(jax.jit, static_argnums=0)", id="partial-argnums-0"),
    pytest.param("@functools.partial(jax.jit, static_argnums=(0,))", id="functools.partial-argnums-tuple"),
    pytest.param("@jax.jit(static_argnums=0)", id="jit-factory-argnums-0"),
    pytest.param('@partial(jax.jit, static_argnames="self")', id="argnames-self"),
    pytest.param('@partial(jax.jit, static_argnames=("self",))', id="argnames-self-tuple"),
    pytest.param("@partial(jax.jit, static_argnums=(0, 1))", id="argnums-self-and-x"),
]


@pytest.mark.parametrize("decorator", SELF_DECORATORS)
def test_static_self_of_a_method(decorator):
    src = f"""
        import functools
        from functools import partial
        import jax

        class Vehicle:
            def __init__(self, num_wheels):
                self.num_wheels = num_wheels

            {decorator}
            def wheels(self, x):
                return x * self.num_wheels
    """
    assert codes_at(src) == vehicle_static(src)


@pytest.mark.parametrize(
    "params, returned, args, expected_static",
    [
        pytest.param("self, v, x", "x * v.num_wheels", "Vehicle(2), 1.0", True, id="static-argument-after-self"),
        # argnum 1 of `drive` is `n`; the Vehicle here is `v` (argnum 2): not static.
        pytest.param("self, n, v", "n * v", "3, Vehicle(2)", False, id="value-at-a-non-static-position-after-self"),
    ],
)
def test_method_argnums_count_self_at_a_call_site(params, returned, args, expected_static):
    src = f"""
        from functools import partial
        import jax

        class Vehicle:
            def __init__(self, num_wheels):
                self.num_wheels = num_wheels

        class Road:
            @partial(jax.jit, static_argnums=1)
            def drive({params}):
                return {returned}

        road = Road()
        road.drive({args})
    """
    # `self` of a plain class is not static here, so JAX raises on the call (JAX202).
    jit_on_method = {(line_of(src, "@partial(jax.jit, static_argnums=1)"), "JAX202")}
    assert codes_at(src) == (vehicle_static(src) if expected_static else set()) | jit_on_method


@pytest.mark.parametrize(
    "wrapper, params, call",
    [
        pytest.param("@staticmethod", "k", "Vehicle.make(3)", id="staticmethod"),
        pytest.param("@classmethod", "cls, k", "Vehicle.make(3)", id="classmethod"),
    ],
)
def test_static_argnum_0_of_static_or_class_method_is_not_self(wrapper, params, call):
    src = f"""
        from functools import partial
        import jax

        class Vehicle:
            def __init__(self, num_wheels):
                self.num_wheels = num_wheels

            {wrapper}
            @partial(jax.jit, static_argnums=0)
            def make({params}):
                return 1

        {call}
    """
    assert codes_at(src) == set()


# Keyword arguments at call sites.

@pytest.mark.parametrize(
    "definition, call",
    [
        pytest.param(
            '@jax.jit(static_argnames="v")\ndef f(x, v):\n    return x + v.num_wheels\n',
            "f(1.0, v=Vehicle(2))",
            id="static_argnames",
        ),
        pytest.param(
            "@jax.jit(static_argnums=1)\ndef f(x, v):\n    return x + v.num_wheels\n",
            "f(1.0, v=Vehicle(2))",
            id="name-inferred-from-argnums",
        ),
        pytest.param(
            "def f(x, v):\n    return x + v.num_wheels\ng = jax.jit(f, static_argnums=1)\n",
            "g(x=1.0, v=Vehicle(2))",
            id="jit-call-name-inferred-from-argnums",
        ),
        pytest.param(
            '@jax.jit(static_argnames="v")\ndef f(x, *, v):\n    return x + v.num_wheels\n',
            "f(1.0, v=Vehicle(2))",
            id="keyword-only-parameter",
        ),
    ],
)
def test_keyword_argument_at_a_static_position(definition, call):
    src = "import jax\n" + VEHICLE + definition + call + "\n"
    assert codes_at(src) == vehicle_static(src), src


# Negatives of positions.


@pytest.mark.parametrize("argnums, expected_static", [(1, False), (0, True)])
def test_argnums_1_with_the_class_at_position_0(argnums, expected_static):
    src = f"""
        import jax

        class Vehicle:
            def __init__(self, num_wheels):
                self.num_wheels = num_wheels

        @jax.jit(static_argnums={argnums})
        def f(v, n):
            return v.num_wheels * n

        f(Vehicle(2), 3)
    """
    assert codes_at(src) == (vehicle_static(src) if expected_static else set())


@pytest.mark.parametrize("argnums, expected_static", [("STATIC", False), ("0", True)])
def test_argnums_not_a_literal_gives_no_finding(argnums, expected_static):
    src = f"""
        from functools import partial
        import jax

        STATIC = 0

        class Vehicle:
            def __init__(self, num_wheels):
                self.num_wheels = num_wheels

        @partial(jax.jit, static_argnums={argnums})
        def f(v: Vehicle):
            return v.num_wheels

        f(Vehicle(2))
    """
    assert codes_at(src) == (vehicle_static(src) if expected_static else set())


@pytest.mark.parametrize("called, expected_static", [("f", False), ("g", True)])
def test_calling_the_original_function_is_not_a_static_use(called, expected_static):
    src = f"""
        import jax

        class Vehicle:
            def __init__(self, num_wheels):
                self.num_wheels = num_wheels

        def f(v):
            return v.num_wheels

        g = jax.jit(f, static_argnums=0)
        {called}(Vehicle(2))
    """
    assert codes_at(src) == (vehicle_static(src) if expected_static else set())


def test_positions_survive_crlf_and_tabs():
    src = (
        "import jax\r\n"
        "\r\n"
        "# the seed\r\n"
        "class Vehicle:\r\n"
        "\tdef __init__(self, num_wheels):\r\n"
        "\t\tself.num_wheels = num_wheels\r\n"
        "\r\n"
        "@jax.jit(static_argnums=0)\r\n"
        "def f(v):\r\n"
        "\treturn v.num_wheels\r\n"
        "\r\n"
        "f(Vehicle(2))\r\n"
        "f([1,\r\n"
        "\t2])\r\n"
    )
    findings, failed = findings_of(src, "demo.py")
    assert not failed
    assert {(x.line, x.column, x.code) for x in findings} == {
        (4, 1, "JAX101"),
        (4, 1, "JAX102"),
        (13, 3, "JAX106"),
    }
