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

Single programs, their findings marked, are case files in `cases/JAX201/`,
`cases/JAX203/` or `cases/JAX401/`; the tests here fill templates over
spellings, or check other modules and the cache.
"""

from __future__ import annotations

import pickle
import textwrap
from pathlib import Path

import pytest

from helpers import codes_at, jaxcheck_run, line_of, located, write, findings_of, model_findings
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


def test_the_message_shows_the_decorators_around_a_jitted_bound_method():
    path = Path(__file__).resolve().parent.parent / "fixtures" / "JAX201" / "fail_jit_of_a_wrapped_bound_method.py"
    findings, failed = findings_of(path.read_text(encoding="utf-8"))
    (finding,) = [found for found in findings if found.code == "JAX201"]
    assert not failed
    assert finding.message.startswith("`jax.jit(checked(self.step))` traces `Trainer.step` once")


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
    # No change in the project: only the latent finding, since `scale` is public state of a class users build ...
    (finding,) = findings_of(src)[0]
    assert (finding.code, "a user's `stepper.scale = ...`" in finding.message) == ("JAX201", True), finding.message
    # ... and none when that state is private.
    assert codes_at(src.replace("self.scale", "self._scale")) == set()


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


# --- JAX203 not flagged --------------------------------------------------------------------


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


def test_lambda_jitted_and_called_at_once_is_jax401_only():
    # jax 0.10.2: a new lambda per call reads the current `self.scale`, never stale, but compiles every call.
    src = closure("return jax.jit(lambda x: x * self.scale)(other)")
    src += "\n\nm = Model(2.0)\nfor i in range(3):\n    m.build(float(i))\n"
    assert codes_at(src) == jitted_at(src, "jax.jit(lambda", "JAX401")


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


# --- JAX401 not flagged: the jitted function lives on --------------------------------------


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
    decoded = pickle.loads(pickle.dumps(module))
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


def test_made_in_a_function_a_loop_reaches_through_another():
    # jax 0.10.2: main's loop calls epoch on every turn, and epoch calls evaluate: a compile per turn.
    src = ONCE_OR_AGAIN.replace("{driver}", "for _ in range(3):\n        epoch(xs)")
    src += "\n\ndef epoch(xs):\n    return evaluate(xs[0])\n"
    assert codes_at(src) == jitted_at(src, "jax.jit(functools.partial", "JAX401")
