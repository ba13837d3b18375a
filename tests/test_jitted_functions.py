"""JAX201, JAX203, JAX401: what becomes of the functions a compiling transform makes.

`jax.jit` keeps its cache on the function it returns, keyed on that function
and the argument shapes, never on what the function closes over. Kept (stored,
returned, called again), a jit of `obj.method` (JAX201) or of a lambda or
nested function reading `self.x` (JAX203) compiles in the state it read when
traced, and returns stale results once that state is assigned again (jax
0.10.2, seed 001: `CustomClass` gives 6, then 6 again after `c.mul = False`).
Made anew and thrown away on every call (JAX401), it compiles on every call.

Findings are reported at the transform's application: the call's start, or
the decorator line.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from helpers import codes_at, jaxcheck_run, line_of, located, write, findings_of, model_findings
from jaxcheck.loading.codec import decode, encode
from jaxcheck.extraction import facts_from_source

# Every spelling of the transforms the templates below use.
IMPORTS = """\
import dataclasses
import functools
from functools import partial
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
from flax import nnx, struct
from jax import jit
from jax import jit as J
from jax.experimental.pjit import pjit
from jax.tree_util import register_pytree_node_class
"""

# --- JAX201 jitted-bound-method ------------------------------------------------------------

# Seed 001's class, with `{decorator}`, `{bases}` and `{body}` to fill, and the
# seed's program after it: jit the bound method, call, change `mul`, call.
SEED = (
    IMPORTS
    + """

{decorator}
class CustomClass{bases}:
    {body}

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

{program}
"""
)

PLAIN_BODY = """\
def __init__(self, x, mul):
        self.x = x
        self.mul = mul"""
FIELDS_BODY = """\
x: int
    mul: bool"""

SEED_PROGRAM = """\
c = CustomClass(2, True)
f = {transform}(c.calc)
f(3)
c.mul = False
f(3)"""

SEED_IN_FUNCTION = """\
def main():
    c = CustomClass(2, True)
    f = {transform}(c.calc)
    f(3)
    c.mul = False
    return f(3)"""


def seed(
    program: str = SEED_PROGRAM,
    transform: str = "jit",
    decorator: str = "",
    bases: str = "",
    body: str = PLAIN_BODY,
) -> str:
    return (
        SEED.replace("{decorator}", decorator)
        .replace("{bases}", bases)
        .replace("{body}", body)
        .replace("{program}", program.replace("{transform}", transform))
    )


def jitted_at(src: str, needle: str, code: str) -> set[tuple[int, str]]:
    """`code` at the first line of `src` holding `needle`: the transform's application."""
    return {(line_of(src, needle), code)}


def block(text: str, spaces: int) -> str:
    """A statement or a triple-quoted block, re-indented to fill a `{...}` placed `spaces` deep."""
    return textwrap.indent(textwrap.dedent(text), " " * spaces).lstrip()


# A class that jits its own `step` once, in __init__; `step` returns `{how}`,
# and `set_scale` assigns `self.scale` again.
STEPPER = """\
import jax


class Stepper:
    def __init__(self, scale):
        self.scale = scale
        self.offset = 1.0
        self._step = jax.jit(self.step)

    def helper(self, x):
        return x * self.scale

    @property
    def factor(self):
        return self.scale

    def step(self, x):
        return {how}

    def set_scale(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._step(x)
"""


def stepper(how: str) -> str:
    return STEPPER.replace("{how}", how)


# --- JAX201 flagged ------------------------------------------------------------------------


def test_seed_at_module_level():
    # jax 0.10.2: f(3) gives 6, then 6 again after `c.mul = False` (3 expected).
    src = seed()
    assert codes_at(src) == jitted_at(src, "f = jit(c.calc)", "JAX201")


def test_seed_inside_a_function():
    # jax 0.10.2: the same stale 6, the jitted bound method being a local of main().
    src = seed(SEED_IN_FUNCTION)
    assert codes_at(src) == jitted_at(src, "f = jit(c.calc)", "JAX201")


@pytest.mark.parametrize(
    "how",
    [
        pytest.param("x * self.scale + self.offset", id="direct-read"),
        pytest.param("self.helper(x) + self.offset", id="through-a-helper-method"),
        pytest.param("x * self.factor + self.offset", id="through-a-property"),
    ],
)
def test_method_jitted_in_init_and_state_assigned_in_another_method(how):
    # jax 0.10.2: `self.scale` is compiled in at the first call; after set_scale(3.0) the old scale is used.
    src = stepper(how)
    assert codes_at(src) == jitted_at(src, "jax.jit(self.step)", "JAX201")


@pytest.mark.parametrize(
    "transform",
    [
        pytest.param("jit", id="jit-imported"),
        pytest.param("J", id="jit-imported-as-J"),
        pytest.param("jax.jit", id="jax.jit"),
        pytest.param("pjit", id="pjit"),
        pytest.param("jax.pmap", id="jax.pmap"),
        pytest.param("eqx.filter_jit", id="eqx.filter_jit"),
        pytest.param("nnx.jit", id="nnx.jit"),
    ],
)
def test_seed_spellings(transform):
    # jax 0.10.2: each caches the bound method's trace: 6, then 6 after `c.mul = False` (pmap: [6.], then [6.]).
    src = seed(SEED_IN_FUNCTION, transform)
    assert codes_at(src) == jitted_at(src, f"f = {transform}(c.calc)", "JAX201")


def test_mutable_dataclass():
    # jax 0.10.2: a dataclass that is not frozen is assigned like any object: 6, then 6.
    src = seed(decorator="@dataclasses.dataclass", body=FIELDS_BODY)
    assert codes_at(src) == jitted_at(src, "f = jit(c.calc)", "JAX201")


MODEL = """\
class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def calc(self, y):
        if self.mul:
            return self.x * y
        return y
"""

RUN = """\
from jax import jit

from pkg.model import CustomClass


def main():
    c = CustomClass(2, True)
    f = jit(c.calc)
    f(3)
    c.mul = False
    return f(3)
"""


def test_class_defined_in_another_module(tmp_path: Path):
    # jax 0.10.2: where the class is defined does not matter: 6, then 6 again.
    write(tmp_path, "pyproject.toml", '[project]\nname = "demo"\nversion = "0"\n')
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/model.py", MODEL)
    write(tmp_path, "pkg/run.py", RUN)
    completed = jaxcheck_run("check", "--no-cache", "pkg", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    assert located(completed.stdout) == {("pkg/run.py", line_of(RUN, "jit(c.calc)"), 9, "JAX201")}


# --- JAX201 not flagged: the class cannot change -------------------------------------------


@pytest.mark.parametrize(
    "decorator, bases, body",
    [
        pytest.param("@dataclasses.dataclass(frozen=True)", "", FIELDS_BODY, id="frozen-dataclass"),
        pytest.param("", "(NamedTuple)", FIELDS_BODY, id="NamedTuple"),
        pytest.param("", "(eqx.Module)", FIELDS_BODY, id="eqx.Module"),
        pytest.param("@struct.dataclass", "", FIELDS_BODY, id="flax.struct.dataclass"),
    ],
)
def test_immutable_class(decorator, bases, body):
    # Python raises on `c.mul = False` (FrozenInstanceError, AttributeError): the compiled-in state cannot change.
    src = seed(SEED_IN_FUNCTION, decorator=decorator, bases=bases, body=body)
    assert codes_at(src) == set()


PYTREE_BODY = """\
def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    def tree_flatten(self):
        return (self.x,), self.mul

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children, aux_data)"""


def test_register_pytree_node_class_assigned_in_place():
    # jax 0.10.2: a bound method's `self` is no argument of the jitted function, pytree or not: 6, then 6.
    src = seed(SEED_IN_FUNCTION, "jax.jit", decorator="@register_pytree_node_class", body=PYTREE_BODY)
    assert codes_at(src) == jitted_at(src, "jax.jit(c.calc)", "JAX201")


# --- JAX201 not flagged: nothing read goes stale -------------------------------------------


def test_method_reads_no_state():
    # jax 0.10.2: the compiled program holds nothing of `c`: f(3) is 3 before and after.
    src = seed(SEED_IN_FUNCTION).replace("if self.mul:\n            return self.x * y\n        ", "")
    assert "self.mul" not in src.split("def calc")[1]
    assert codes_at(src) == set()


def test_state_read_is_assigned_only_in_init():
    # jax 0.10.2: `self.scale` never changes after construction, so the compiled-in value stays right.
    src = stepper("x * self.scale").replace(
        "self.scale = scale\n\n    def __call__", "self.offset = scale\n\n    def __call__"
    )
    assert src.count("self.scale = scale") == 1  # set_scale now assigns only `offset`, which step does not read
    assert codes_at(src) == set()


def test_assigned_before_the_jit_in_the_same_function():
    # jax 0.10.2: `mul` is False when f is first traced: f(3) is 3, as expected.
    program = """\
def main():
    c = CustomClass(2, True)
    c.mul = False
    f = jit(c.calc)
    f(3)
    return f(3)"""
    src = seed(program)
    assert codes_at(src) == set()


def test_jitted_and_called_at_once_is_jax401_only():
    # jax 0.10.2: a new jitted function per call is never stale, but compiles every time (JAX401).
    program = """\
def main(c: CustomClass):
    return jax.jit(c.calc)(3)


c = CustomClass(2, True)
for _ in range(2):
    main(c)
c.mul = False
main(c)"""
    src = seed(program)
    assert codes_at(src) == jitted_at(src, "jax.jit(c.calc)(3)", "JAX401")


def test_dropped_jit_of_a_module_level_objects_method():
    # jax 0.10.2: the dropped jitted function is never called, so never stale: warm() gives 6, then 3.
    program = """\
c = CustomClass(2, True)


def warm():
    jax.jit(c.calc)
    return c.calc(3)


for _ in range(2):
    warm()
c.mul = False
warm()"""
    src = seed(program)
    assert codes_at(src) == jitted_at(src, "jax.jit(c.calc)", "JAX401")


# Made anew and used at once, before and after `c.mul` changes.
MADE_TWICE = """\
def main():
    c = CustomClass(2, True)
    {transform}(c.calc)(3)
    c.mul = False
    return {transform}(c.calc)(3)"""


@pytest.mark.parametrize(
    "transform",
    [
        pytest.param("jax.make_jaxpr", id="make_jaxpr"),
        pytest.param("jax.checkpoint", id="checkpoint"),
    ],
)
def test_non_compiling_transform_used_where_it_is_made(transform):
    # jax 0.10.2: made anew, each traces `c` as it is now: the jaxpr of `mul` True, then False; checkpoint 6, then 3.
    src = seed(MADE_TWICE, transform)
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "transform",
    [
        pytest.param("jax.make_jaxpr", id="make_jaxpr"),
        pytest.param("jax.checkpoint", id="checkpoint"),
    ],
)
def test_non_compiling_transform_kept(transform):
    # jax 0.10.2: kept, make_jaxpr gives the jaxpr of `mul` True again after the change, checkpoint 6 again.
    src = seed(SEED_IN_FUNCTION, transform)
    assert codes_at(src) == jitted_at(src, f"f = {transform}(c.calc)", "JAX201")


def test_class_with_an_unknown_base():
    # A base jaxcheck cannot see may make the class a frozen pytree: it is not judged.
    src = "import somelib\n" + seed(SEED_IN_FUNCTION, bases="(somelib.Base)")
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "transform",
    [
        pytest.param("jax.vmap", id="vmap"),
        pytest.param("jax.grad", id="grad"),
    ],
)
def test_transform_without_a_cache(transform):
    # jax 0.10.2: vmap and grad trace on every call: [6.] then [3.]; grad 2.0 then 1.0.
    src = seed(SEED_IN_FUNCTION, transform)
    assert codes_at(src) == set()


# --- JAX203 jitted-closure-over-self -------------------------------------------------------

# A mutable class whose `build` runs `{made}`; set_scale assigns `self.scale`
# again after construction, `self.bias` is never assigned again.
MODEL_CLOSURE = (
    IMPORTS
    + """

class Model:
    def __init__(self, scale):
        self.scale = scale
        self.bias = 1.0
        self._f = None

    def helper(self, x):
        return x * self.scale

    def build(self, other):
        {made}

    def set_scale(self, scale):
        self.scale = scale

    def __call__(self, x):
        return self._f(x)
"""
)


def closure(made: str) -> str:
    return MODEL_CLOSURE.replace("{made}", block(made, 8))


# --- JAX203 flagged ------------------------------------------------------------------------


def test_lambda_over_self_stored_on_self():
    # jax 0.10.2: the lambda compiles in scale=2.0; after set_scale(3.0) it still multiplies by 2.0.
    src = closure("self._f = jax.jit(lambda x: x * self.scale)")
    assert codes_at(src) == jitted_at(src, "jax.jit(lambda", "JAX203")


def test_nested_def_given_to_jit():
    # jax 0.10.2: the nested `f` closes over `self`; jit traces only `x`: stale after set_scale.
    src = closure(
        """
        def f(x):
            return x * self.scale

        self._f = jax.jit(f)
        """
    )
    assert codes_at(src) == jitted_at(src, "jax.jit(f)", "JAX203")


def test_decorated_nested_def_returned():
    # jax 0.10.2: the returned jitted `g` keeps its cache, and `self.scale` with it.
    src = closure(
        """
        @jax.jit
        def g(x):
            return x * self.scale

        return g
        """
    )
    assert codes_at(src) == jitted_at(src, "@jax.jit", "JAX203")


def test_lambda_through_a_helper_reading_assigned_state():
    # jax 0.10.2: `self.helper(x)` is traced with it, and `self.scale` compiled in: stale.
    src = closure("self._f = jax.jit(lambda x: self.helper(x) + self.bias)")
    assert codes_at(src) == jitted_at(src, "jax.jit(lambda", "JAX203")


# --- JAX203 not flagged --------------------------------------------------------------------


def test_lambda_reads_attributes_never_assigned_again():
    # jax 0.10.2: `self.bias` is set once, in __init__: the compiled-in value stays right.
    src = closure("self._f = jax.jit(lambda x: x + self.bias)")
    assert codes_at(src) == set()


# A class that cannot be assigned after construction, whose `build` returns a
# jitted lambda over `self.scale`; the program then tries to change it.
FROZEN_CLOSURE = (
    IMPORTS
    + """

{decorator}
class Model{bases}:
    scale: float

    def build(self):
        return jax.jit(lambda x: x * self.scale)


m = Model(2.0)
f = m.build()
f(1.0)
m.scale = 3.0
"""
)


@pytest.mark.parametrize(
    "decorator, bases",
    [
        pytest.param("@dataclasses.dataclass(frozen=True)", "", id="frozen-dataclass"),
        pytest.param("", "(eqx.Module)", id="eqx.Module"),
        pytest.param("@struct.dataclass", "", id="flax.struct.dataclass"),
    ],
)
def test_closure_over_an_immutable_class(decorator, bases):
    # Python raises on `m.scale = 3.0` (FrozenInstanceError): the compiled-in scale cannot go stale.
    src = FROZEN_CLOSURE.replace("{decorator}", decorator).replace("{bases}", bases)
    assert codes_at(src) == set()


def test_closure_over_a_mutable_registered_pytree():
    # jax 0.10.2: `self` is a free variable of the lambda, pytree or not: after set_scale(3.0) it still uses 2.0.
    src = closure("self._f = jax.jit(lambda x: x * self.scale)").replace(
        "class Model:",
        "@register_pytree_node_class\nclass Model:\n"
        "    def tree_flatten(self):\n        return (self.scale, self.bias), None\n\n"
        "    @classmethod\n    def tree_unflatten(cls, aux_data, children):\n        return cls(children[0])\n",
    )
    assert codes_at(src) == jitted_at(src, "jax.jit(lambda", "JAX203")


def test_lambda_over_another_parameter():
    # JAX compiles in `other.scale` just the same, but JAX203 follows only a method's `self`.
    src = closure("self._f = jax.jit(lambda x: x * other.scale)")
    assert codes_at(src) == set()


def test_lambda_jitted_and_called_at_once_is_jax401_only():
    # jax 0.10.2: a new lambda per call reads the current `self.scale`, never stale, but compiles every call.
    src = closure("return jax.jit(lambda x: x * self.scale)(other)")
    src += "\n\nm = Model(2.0)\nfor i in range(3):\n    m.build(float(i))\n"
    assert codes_at(src) == jitted_at(src, "jax.jit(lambda", "JAX401")


def test_lambda_at_module_level():
    # No `self` at module level: JAX compiles in `m.scale` too, but JAX203 covers closures over `self`.
    src = closure("pass") + "\n\nm = Model(2.0)\nf = jax.jit(lambda x: x * m.scale)\nf(1.0)\nm.set_scale(3.0)\n"
    assert codes_at(src) == set()


def test_vmap_of_a_lambda_over_self():
    # jax 0.10.2: vmap keeps no trace: each call reads the current `self.scale`.
    src = closure("self._f = jax.vmap(lambda x: x * self.scale)")
    assert codes_at(src) == set()


# --- JAX401 jit-recreated-per-call ---------------------------------------------------------

# A module with a function `step` whose body is `{body}`, and a class whose
# `__call__` body is `{method}`.
PER_CALL = (
    IMPORTS
    + """

def body(v, n=1):
    return v * n


def step(x, xs):
    {body}


class Model:
    def __init__(self, scale):
        self.scale = scale

    def apply(self, x):
        return x * self.scale

    def __call__(self, x):
        {method}


def train(xs):
    # Called on every turn of the loop: what `step` and `Model.__call__` make, they make again.
    model = Model(2.0)
    for x in xs:
        step(x, xs)
        model(x)
"""
)


def per_call(body: str = "return x", method: str = "return x") -> str:
    return PER_CALL.replace("{body}", block(body, 4)).replace("{method}", block(method, 8))


# --- JAX401 flagged ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, needle",
    [
        pytest.param("return jax.jit(lambda v: v)(x)", "jax.jit(lambda", id="lambda-called-at-once"),
        pytest.param("return jax.jit(partial(body, 1))(x)", "jax.jit(partial", id="partial-called-at-once"),
        pytest.param("return jax.jit(functools.partial(body, 1))(x)", "jax.jit(functools", id="functools.partial"),
        pytest.param("return eqx.filter_jit(lambda v: v)(x)", "eqx.filter_jit(lambda", id="eqx.filter_jit"),
        pytest.param("return nnx.jit(lambda v: v)(x)", "nnx.jit(lambda", id="nnx.jit"),
        pytest.param("return jax.pmap(lambda v: v)(x)", "jax.pmap(lambda", id="jax.pmap"),
        pytest.param(
            "return partial(jax.jit, static_argnums=0)(lambda n, v: v * n)(2, x)",
            "partial(jax.jit",
            id="partial-decorator-factory",
        ),
    ],
)
def test_made_and_called_at_once_in_a_function(body, needle):
    # jax 0.10.2: a new function object per call of step(), and so an empty cache: 4 calls, 4 traces.
    src = per_call(body)
    assert codes_at(src) == jitted_at(src, needle, "JAX401")


def test_bound_method_jitted_per_call():
    # jax 0.10.2: `self.apply` is a new bound method on every read: 4 calls of model(x), 4 traces.
    src = per_call(method="return jax.jit(self.apply)(x)")
    assert codes_at(src) == jitted_at(src, "jax.jit(self.apply)", "JAX401")


def test_decorated_nested_def_called_once():
    # jax 0.10.2: `def inner` runs on every call of step(), so inner starts with an empty cache: 4 calls, 4 traces.
    src = per_call(
        """
        @jax.jit
        def inner(v):
            return v * 2

        return inner(x)
        """
    )
    assert codes_at(src) == jitted_at(src, "@jax.jit", "JAX401")


def test_local_called_once():
    # jax 0.10.2: held in a local for one call, the new jitted lambda still compiles on every call of step().
    src = per_call(
        """
        f = jax.jit(lambda v: v * 2)
        return f(x)
        """
    )
    assert codes_at(src) == jitted_at(src, "jax.jit(lambda", "JAX401")


def test_local_made_and_called_in_a_loop():
    # jax 0.10.2: a new lambda per loop turn: 4 turns with same-shaped inputs, 4 traces.
    src = per_call(
        """
        for _ in range(4):
            f = jax.jit(lambda v: v * 0.5)
            x = f(x)
        return x
        """
    )
    assert codes_at(src) == jitted_at(src, "jax.jit(lambda", "JAX401")


def test_made_in_a_comprehension():
    # jax 0.10.2: a new lambda per element: 4 elements, 4 traces.
    src = per_call("return [jax.jit(lambda v: v)(x) for x in xs]")
    assert codes_at(src) == jitted_at(src, "jax.jit(lambda", "JAX401")


def test_module_level_loop():
    # jax 0.10.2: the loop body makes a new lambda on every turn: 4 turns, 4 traces.
    src = per_call() + "\n\nfor i in range(4):\n    jax.jit(lambda v: v)(i)\n"
    assert codes_at(src) == jitted_at(src, "jax.jit(lambda v: v)(i)", "JAX401")


def test_module_level_loop_over_a_bound_method():
    # jax 0.10.2: `m.apply` is a new bound method on every turn, and jit traces it again: 4 turns, 4 traces.
    src = per_call() + "\n\nm = Model(2.0)\nfor i in range(4):\n    jax.jit(m.apply)(i)\n"
    assert codes_at(src) == jitted_at(src, "jax.jit(m.apply)(i)", "JAX401")


def test_dropped_jit_of_a_bound_method():
    # jax 0.10.2: jax.jit returns a new function and leaves `self.apply` as it was: it runs un-jitted.
    src = per_call(
        method="""
        jax.jit(self.apply)
        return self.apply(x)
        """
    )
    assert codes_at(src) == jitted_at(src, "jax.jit(self.apply)", "JAX401")


# --- JAX401 not flagged: the jitted function lives on --------------------------------------


def test_module_level_function_jitted_per_call():
    # jax 0.10.2: jit finds its cache again for the same module-level `body`: 4 calls, 1 trace.
    src = per_call("return jax.jit(body)(x)")
    assert codes_at(src) == set()


def test_jitted_once_in_main_and_reused_in_a_loop():
    # jax 0.10.2: one jitted function, called 4 times with same-shaped inputs: 1 trace.
    src = per_call(
        """
        f = jax.jit(lambda v: v * 2)
        for _ in range(4):
            x = f(x)
        return x
        """
    )
    assert codes_at(src) == set()


def test_nested_def_called_several_times_in_one_call():
    # jax 0.10.2: inner compiles once per call of step(), and its second call hits that cache.
    src = per_call(
        """
        @jax.jit
        def inner(v):
            return v * 2

        return inner(inner(x))
        """
    )
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("return jax.jit(lambda v: v * 2)", id="factory-returns-it"),
        pytest.param(
            """
            f = jax.jit(lambda v: v * 2)
            return f
            """,
            id="local-returned",
        ),
        pytest.param(
            """
            f = jax.jit(lambda v: v * 2)
            return xs.map(f)
            """,
            id="local-passed-on",
        ),
        pytest.param(
            """
            f = jax.jit(lambda v: v * 2)
            xs[x] = f
            return f(x)
            """,
            id="local-stored-in-a-dict",
        ),
        pytest.param(
            """
            f = jax.jit(lambda v: v * 2)
            f = jax.jit(lambda v: v * 3)
            return f(x)
            """,
            id="local-rebound",
        ),
    ],
)
def test_jitted_function_kept(body):
    # jax 0.10.2: the caller holds on to the jitted function and its cache: it compiles once.
    src = per_call(body)
    assert codes_at(src) == set()


def test_stored_on_self_in_init():
    # jax 0.10.2: jitted once per object; every call of model(x) reuses its cache.
    src = per_call(method="return self._apply(x)").replace(
        "self.scale = scale\n", "self.scale = scale\n        self._apply = jax.jit(lambda x: x * 2)\n"
    )
    assert codes_at(src) == set()


def test_lambda_jitted_at_module_level():
    # jax 0.10.2: made once, at import, and called as often as needed: 1 trace.
    src = per_call() + "\n\nf = jax.jit(lambda v: v * 2)\nf(1.0)\njax.jit(lambda v: v)(1.0)\n"
    assert codes_at(src) == set()


# --- JAX401 not flagged: run once, or while tracing ----------------------------------------


def test_test_file():
    # A test calls it once on purpose: a file named test_*.py is not checked for JAX401.
    src = per_call("return jax.jit(lambda v: v)(x)")
    findings, failed = findings_of(src, "test_x.py")
    assert not failed
    assert findings == []


@pytest.mark.parametrize(
    "definition",
    [
        pytest.param("def test_foo(x):\n    return jax.jit(lambda v: v)(x)\n", id="test-function"),
        pytest.param(
            "class TestFoo:\n    def check(self, x):\n        return jax.jit(lambda v: v)(x)\n",
            id="method-of-a-test-class",
        ),
    ],
)
def test_test_function(definition):
    # A test runs once, on purpose: its one compile is the point.
    src = per_call() + "\n\n" + definition
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "wrapper",
    [
        pytest.param("@jax.jit\ndef traced(x):\n    return {inner}\n", id="inside-jax.jit"),
        pytest.param(
            "def traced(carry, x):\n    return {inner}, x\n\n\njax.lax.scan(traced, 0.0, jnp.arange(3.0))\n",
            id="lax.scan-body",
        ),
        pytest.param("def traced(x):\n    return {inner}\n\n\njax.vmap(traced)(jnp.arange(3.0))\n", id="vmap-body"),
    ],
)
def test_made_while_tracing(wrapper):
    # jax 0.10.2: code under jit, scan or vmap runs while tracing: the inner jit traces once per outer trace.
    src = per_call() + "\n\n" + wrapper.replace("{inner}", "jax.jit(lambda v: v * 2)(x)")
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("return jax.vmap(lambda v: v)(x)", id="vmap"),
        pytest.param("return jax.grad(lambda v: v * 2)(x)", id="grad"),
    ],
)
def test_transform_without_a_cache_made_per_call(body):
    # jax 0.10.2: vmap and grad trace on every call, kept or made anew (4 calls, 4 traces either way).
    src = per_call(body)
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("return jax.make_jaxpr(lambda v: v)(x)", id="make_jaxpr"),
        pytest.param("return jax.checkpoint(lambda v: v)(x)", id="checkpoint"),
    ],
)
def test_transform_that_compiles_nothing_made_per_call(body):
    # jax 0.10.2: made anew they trace again (4 traces, kept: 1), but compile no program (checkpoint runs eval_jaxpr).
    src = per_call(body)
    assert codes_at(src) == set()


# --- the facts survive the cache -----------------------------------------------------------

ROUND_TRIP = """\
import jax


class Model:
    def __init__(self, scale):
        self.scale = scale
        self._f = jax.jit(lambda x: x * self.scale)

    def build(self):
        @jax.jit
        def g(x):
            return x * self.scale

        return g

    def warm(self, x):
        jax.jit(self.build)
        return x

    def set_scale(self, scale):
        self.scale = scale


for i in range(3):
    jax.jit(lambda v: v)(i)
    Model(2.0).warm(i)
"""


def test_cache_round_trip_keeps_the_new_facts():
    # The facts stored in the cache give the same findings as fresh ones.
    module = facts_from_source(ROUND_TRIP, "m.py", "pkg.m", False)
    assert module.closures and module.discarded and module.looped and module.loop_calls
    build = next(function for function in module.functions if function.name == "build")
    g = next(function for function in module.functions if function.name == "g")
    assert build.locals and g.free_reads
    decoded = decode(json.loads(json.dumps(encode(module))))
    assert decoded == module
    fresh = model_findings([module])
    cached = model_findings([decoded])
    assert [(x.line, x.code) for x in cached] == [(x.line, x.code) for x in fresh]
    assert {(x.line, x.code) for x in fresh} == {
        (line_of(ROUND_TRIP, "jax.jit(lambda x"), "JAX203"),
        (line_of(ROUND_TRIP, "@jax.jit"), "JAX203"),
        (line_of(ROUND_TRIP, "jax.jit(self.build)"), "JAX401"),
        (line_of(ROUND_TRIP, "jax.jit(lambda v: v)(i)"), "JAX401"),
    }


# --- refinements found by review ------------------------------------------------------------

CLOSURE_REUSED = IMPORTS + """

class Model:
    def __init__(self, scale):
        self.scale = scale

    def set_scale(self, scale):
        self.scale = scale

    def run(self, x):
        f = jax.jit(lambda v: v * self.scale)
        return f(f(x))
"""


def test_closure_held_for_one_call_is_not_stale():
    # jax 0.10.2: `f` is a new function on every call of `run`, and nothing in `run`
    # changes `self.scale` between its two uses: never stale (the setter runs between calls).
    assert codes_at(CLOSURE_REUSED) == set()


FILTER_JIT_PER_CALL = IMPORTS + """

class Plain:
    def __init__(self, w):
        self.w = w

    def apply(self, x):
        return x * self.w

    def __call__(self, x):
        return eqx.filter_jit(self.apply)(x)

p = Plain(2.0)
p.w = 3.0
"""


def test_filter_jit_of_a_bound_method_made_per_call_goes_stale():
    # equinox 0.13.8: filter_jit hashes the function, and two bound methods of one object are
    # equal: the new filter_jit finds the old cache, 4.0 where 6.0 is right. Not a recompile.
    assert codes_at(FILTER_JIT_PER_CALL) == jitted_at(FILTER_JIT_PER_CALL, "eqx.filter_jit(self.apply)", "JAX201")


TREE_MAP_CALLBACK = IMPORTS + """

def _scale(leaf):
    return jax.jit(lambda v: v * 2)(leaf)

def step(tree):
    return jax.tree_util.tree_map(_scale, tree)
"""


def test_function_given_to_tree_map_runs_on_every_call():
    # jax 0.10.2: tree_map calls `_scale` eagerly on every call of `step`: it is not traced code.
    assert codes_at(TREE_MAP_CALLBACK) == jitted_at(TREE_MAP_CALLBACK, "jax.jit(lambda", "JAX401")


TEST_NAMES = IMPORTS + """

def testing_util(x):
    return jax.jit(lambda v: v + 1)(x)

def test_roundtrip():
    def helper(x):
        return jax.jit(lambda v: v + 1)(x)
    for x in range(3):
        assert helper(x) == x + 1
        assert testing_util(x) == x + 1
"""


def test_only_test_functions_and_their_helpers_are_exempt():
    # A name that merely starts with "test" is no test; a helper nested in a test runs with it.
    assert codes_at(TEST_NAMES) == {(line_of(TEST_NAMES, "def testing_util") + 1, "JAX401")}


# --- JAX401 needs evidence that the code runs again and again ---------------------------------

ONCE_OR_AGAIN = IMPORTS + """

def body(v):
    return v * 2


def evaluate(x):
    return jax.jit(functools.partial(body))(x)


class Evaluator:
    def __init__(self, x):
        self.first = jax.jit(lambda v: v + 1)(x)


def main(xs):
    {driver}
"""


def test_made_in_a_function_called_once_is_not_flagged():
    # jax 0.10.2: one call, one compile: jitting once elsewhere would compile just as much.
    src = ONCE_OR_AGAIN.replace("{driver}", "return evaluate(xs[0]), Evaluator(xs[0])")
    assert codes_at(src) == set()


def test_made_in_a_function_a_loop_reaches_through_another():
    # jax 0.10.2: main's loop calls epoch on every turn, and epoch calls evaluate: a compile per turn.
    src = ONCE_OR_AGAIN.replace("{driver}", "for _ in range(3):\n        epoch(xs)")
    src += "\n\ndef epoch(xs):\n    return evaluate(xs[0])\n"
    assert codes_at(src) == jitted_at(src, "jax.jit(functools.partial", "JAX401")


def test_made_in_init_of_a_class_built_in_a_loop():
    # jax 0.10.2: each Evaluator(...) jits a new lambda: a compile per object.
    src = ONCE_OR_AGAIN.replace("{driver}", "return [Evaluator(x) for x in xs]")
    assert codes_at(src) == jitted_at(src, "jax.jit(lambda v: v + 1)", "JAX401")
