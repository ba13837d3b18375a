"""JAX105 bound-method-field: a static class stores a per-instance callable.

Each test lints one small program in-process and asserts the exact set of
(line, code) findings. Every program is also a plain, runnable JAX program
that builds 3 fresh, equal static values and counts traces: the positives
trace 3 times (a bound method hashes and compares by the identity of its
`__self__`; a lambda, nested function or `functools.partial` is a new object
each time it is made), the negatives once. `test_jax_traces_as_the_lint_says`
checks that under real JAX (jax 0.10.2, CPU), so the lint expectation is
backed by JAX's behaviour and not only by jaxcheck.

The static classes are otherwise static-safe, so that JAX105 is the only
finding: `Model` blocks `__setattr__` once an attribute is set (immutable)
and hashes and compares by value over its type and every field; `Cfg` is a
frozen dataclass.

Single programs, their findings marked, are case files in `cases/JAX105/`.
"""

from __future__ import annotations

import textwrap

import pytest

from helpers import codes_at, line_of

# --- sample programs --------------------------------------------------------------------------

# A plain, immutable, value-hashed Model reaching static argument 1 of `apply` (by the
# annotation and by the constructor at the call). Each test replaces PRELUDE (module-level
# definitions), INIT (the rest of `__init__`), METHODS (more methods), FIELD (the field besides
# `scale`, in `__hash__`/`__eq__`) and CALL (what `apply` returns).
MODEL_TEMPLATE = """\
import functools
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

TRACES = [0]

PRELUDE

class Model:
    def __init__(self, scale):
        self.scale = scale
INIT
METHODS

    def relu(self, x):
        return jnp.maximum(x, 0.0) * self.scale

    def __setattr__(self, name, value):
        if name in self.__dict__:
            raise AttributeError(f"Model.{name} is read-only")
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise AttributeError(f"Model.{name} is read-only")

    def __hash__(self):
        return hash((type(self), self.scale, self.FIELD))

    def __eq__(self, other):
        return type(other) is type(self) and (self.scale, self.FIELD) == (other.scale, other.FIELD)


@partial(jax.jit, static_argnums=1)
def apply(x, model: Model):
    TRACES[0] += 1
    return CALL


for _ in range(3):
    apply(1.0, Model(2.0))
"""


def model_src(
    init: str, prelude: str = "", methods: str = "", field: str = "act", call: str = "model.act(x)"
) -> str:
    """MODEL_TEMPLATE with `init` as the rest of `__init__` and `methods` as more methods."""
    methods = textwrap.dedent(methods).strip("\n")
    return (
        MODEL_TEMPLATE.replace("PRELUDE", textwrap.dedent(prelude).strip("\n"))
        .replace("INIT", textwrap.indent(textwrap.dedent(init).strip("\n"), " " * 8))
        .replace("METHODS", "\n" + textwrap.indent(methods, " " * 4) if methods else "")
        .replace("FIELD", field)
        .replace("CALL", call)
    )


# A frozen dataclass Cfg reaching static argument 1 of `apply`; each test replaces BUILD with
# the body of `run`, which builds a Cfg and calls `apply` (run 3 times, as a driver builds its
# config per run).
CFG_TEMPLATE = """\
import functools
from dataclasses import dataclass
from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np

TRACES = [0]


def double(x):
    return x * 2


class Helper:
    def __init__(self, k):
        self.k = k

    def run(self, x):
        return x * self.k


@dataclass(frozen=True)
class Cfg:
    fn: Callable


@partial(jax.jit, static_argnums=1)
def apply(x, cfg: Cfg):
    TRACES[0] += 1
    return cfg.fn(x)


def run():
BUILD


for _ in range(3):
    run()
"""


def cfg_src(build: str) -> str:
    """CFG_TEMPLATE with `build` as the body of `run`."""
    return CFG_TEMPLATE.replace("BUILD", textwrap.indent(textwrap.dedent(build).strip("\n"), " " * 4))


# --- positives: stored on the instance ----------------------------------------------------------

# self.f = self.g in __init__: Model(2.0).act is bound to that Model.
SELF_METHOD_SRC = model_src("self.act = self.relu")

# self.f = other.method: bound to a Helper made per Model.
OTHER_METHOD_SRC = model_src(
    """
    helper = Helper(scale)
    self.act = helper.run
    """,
    prelude="""
    class Helper:
        def __init__(self, k):
            self.k = k

        def run(self, x):
            return x * self.k
    """,
)

# self.f = lambda ...: a new function per Model.
LAMBDA_SRC = model_src("self.act = lambda x: x * scale")

# def inner(...) then self.f = inner: a new function per Model.
NESTED_DEF_SRC = model_src(
    """
    def act(x):
        return x * scale

    self.act = act
    """
)

# functools.partial(...) stored: a partial hashes and compares by identity.
PARTIAL_SRC = model_src(
    "self.act = functools.partial(scaled, k=scale)",
    prelude="""
    def scaled(x, k):
        return x * k
    """,
)
PARTIAL_IMPORTED_SRC = model_src(
    "self.act = partial(scaled, k=scale)",
    prelude="""
    def scaled(x, k):
        return x * k
    """,
)

# Stored by a helper method that __init__ calls ("any method").
HELPER_METHOD_SRC = model_src(
    "self._setup()",
    methods="""
    def _setup(self):
        self.act = self.relu
    """,
)

# object.__setattr__(self, "fn", self._apply) in __post_init__ of a frozen dataclass.
POST_INIT_SRC = """\
from dataclasses import dataclass
from functools import partial
from typing import Callable

import jax

TRACES = [0]


@dataclass(frozen=True)
class Cfg:
    scale: float
    fn: Callable = None

    def __post_init__(self):
        object.__setattr__(self, "fn", self._apply)

    def _apply(self, x):
        return x * self.scale


@partial(jax.jit, static_argnums=1)
def apply(x, cfg: Cfg):
    TRACES[0] += 1
    return cfg.fn(x)


for _ in range(3):
    apply(1.0, Cfg(2.0))
"""

# `self` of a jitted method with argument 0 static: the class reaches a static position by itself.
STATIC_SELF_SRC = """\
from functools import partial

import jax
import jax.numpy as jnp

TRACES = [0]


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.act = self.relu

    def relu(self, x):
        return jnp.maximum(x, 0.0) * self.scale

    def __setattr__(self, name, value):
        if name in self.__dict__:
            raise AttributeError(f"Model.{name} is read-only")
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise AttributeError(f"Model.{name} is read-only")

    def __hash__(self):
        return hash((type(self), self.scale, self.act))

    def __eq__(self, other):
        return type(other) is type(self) and (self.scale, self.act) == (other.scale, other.act)

    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        TRACES[0] += 1
        return self.act(x)


for _ in range(3):
    Model(2.0)(1.0)
"""

# --- positives: given at a construction site --------------------------------------------------------

# The Cfg built is bound to a name, then passed (the common shape: build, then call).
CONSTRUCTED_BOUND_METHOD_SRC = cfg_src(
    """
    helper = Helper(2.0)
    cfg = Cfg(fn=helper.run)
    apply(1.0, cfg)
    """
)
CONSTRUCTED_BOUND_METHOD_POSITIONAL_SRC = cfg_src(
    """
    helper = Helper(2.0)
    cfg = Cfg(helper.run)
    apply(1.0, cfg)
    """
)
CONSTRUCTED_LAMBDA_SRC = cfg_src(
    """
    cfg = Cfg(fn=lambda v: v * 2)
    apply(1.0, cfg)
    """
)
CONSTRUCTED_PARTIAL_SRC = cfg_src(
    """
    cfg = Cfg(fn=functools.partial(jnp.multiply, 2.0))
    apply(1.0, cfg)
    """
)
CONSTRUCTED_NESTED_DEF_SRC = cfg_src(
    """
    def triple(v):
        return v * 3

    cfg = Cfg(fn=triple)
    apply(1.0, cfg)
    """
)
# The constructor written straight into the jitted call.
CONSTRUCTED_IN_CALL_BOUND_METHOD_SRC = cfg_src(
    """
    helper = Helper(2.0)
    apply(1.0, Cfg(fn=helper.run))
    """
)
CONSTRUCTED_IN_CALL_LAMBDA_SRC = cfg_src("apply(1.0, Cfg(fn=lambda v: v * 2))")

# --- negatives --------------------------------------------------------------------------------

MODULE_FUNCTION_SRC = model_src(
    "self.act = relu",
    prelude="""
    def relu(x):
        return jnp.maximum(x, 0.0)
    """,
)
UNBOUND_METHOD_SRC = model_src("self.act = Model.relu", call="model.act(model, x)")
# np.sin cannot take a tracer: it runs on a static float at trace time.
NUMPY_FUNCTION_SRC = model_src("self.act = np.sin", call="x * model.act(model.scale)")
JNP_FUNCTION_SRC = model_src("self.act = jnp.tanh")
TYPE_SELF_METHOD_SRC = model_src("self.act = type(self).relu", call="model.act(model, x)")
BUILTIN_SRC = model_src("self.act = abs")
# self.g of a staticmethod is a plain function; of a classmethod, bound to the class (a singleton).
STATICMETHOD_SRC = model_src(
    "self.act = self.twice",
    methods="""
    @staticmethod
    def twice(x):
        return x * 2
    """,
)
CLASSMETHOD_SRC = model_src(
    "self.act = self.twice",
    methods="""
    @classmethod
    def twice(cls, x):
        return x * 2
    """,
)
# A method called in __init__, its result stored; a method called by the jitted function.
METHOD_CALLED_NOT_STORED_SRC = model_src(
    "self.offset = self.half(scale)",
    methods="""
    def half(self, v):
        return v / 2
    """,
    field="offset",
    call="model.relu(x) + model.offset",
)
POST_INIT_UNBOUND_SRC = POST_INIT_SRC.replace(
    'object.__setattr__(self, "fn", self._apply)', 'object.__setattr__(self, "fn", Cfg._apply)'
).replace("cfg.fn(x)", "cfg.fn(cfg, x)")
CONSTRUCTED_MODULE_FUNCTION_SRC = cfg_src(
    """
    cfg = Cfg(fn=double)
    apply(1.0, cfg)
    """
)
CONSTRUCTED_IN_CALL_MODULE_FUNCTION_SRC = cfg_src("apply(1.0, Cfg(fn=double))")
CONSTRUCTED_NUMPY_FUNCTION_SRC = cfg_src(
    """
    cfg = Cfg(fn=np.sin)
    apply(1.0, cfg)
    """
).replace("return cfg.fn(x)", "return x * cfg.fn(2.0)")
CONSTRUCTED_BUILTIN_SRC = cfg_src(
    """
    cfg = Cfg(abs)
    apply(1.0, cfg)
    """
)
CONSTRUCTED_UNBOUND_METHOD_SRC = cfg_src(
    """
    cfg = Cfg(fn=Helper.run)
    apply(1.0, cfg)
    """
).replace("return cfg.fn(x)", "return cfg.fn(Helper(2.0), x)")
# A lambda as a class-level default is made once, when the class is defined.
CLASS_DEFAULT_LAMBDA_SRC = cfg_src(
    """
    cfg = Cfg()
    apply(1.0, cfg)
    """
).replace("fn: Callable\n", "fn: Callable = lambda v: v * 2\n")
# A bound method stored by a class that never reaches a static position (used eagerly).
NOT_STATIC_SRC = (
    model_src("self.act = self.relu")
    .replace("@partial(jax.jit, static_argnums=1)\n", "")
    .replace("TRACES[0] += 1\n", "TRACES[0] = 1\n")
    + "# static_argnums: named, so the pre-filter passes the file to the rules\n"
)


# --- lint tests -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, needle",
    [
        pytest.param(SELF_METHOD_SRC, "self.act = self.relu", id="self.f=self.g-in-__init__"),
        pytest.param(OTHER_METHOD_SRC, "self.act = helper.run", id="self.f=other.method"),
        pytest.param(LAMBDA_SRC, "self.act = lambda", id="self.f=lambda"),
        pytest.param(NESTED_DEF_SRC, "self.act = act", id="nested-def-stored"),
        pytest.param(PARTIAL_SRC, "self.act = functools.partial", id="functools.partial-stored"),
        pytest.param(PARTIAL_IMPORTED_SRC, "self.act = partial(", id="imported-partial-stored"),
        pytest.param(HELPER_METHOD_SRC, "self.act = self.relu", id="stored-by-a-helper-method"),
        pytest.param(POST_INIT_SRC, "object.__setattr__(self", id="object.__setattr__-in-__post_init__"),
        pytest.param(STATIC_SELF_SRC, "self.act = self.relu", id="static-self"),
    ],
)
def test_stored_per_instance_is_reported_at_the_assignment(src, needle):
    assert codes_at(src) == {(line_of(src, needle), "JAX105")}


@pytest.mark.parametrize(
    "src, needle",
    [
        pytest.param(CONSTRUCTED_BOUND_METHOD_SRC, "fn=helper.run", id="Cfg(fn=obj.method)"),
        pytest.param(CONSTRUCTED_BOUND_METHOD_POSITIONAL_SRC, "Cfg(helper.run)", id="Cfg(obj.method)"),
        pytest.param(CONSTRUCTED_LAMBDA_SRC, "fn=lambda", id="Cfg(fn=lambda)"),
        pytest.param(CONSTRUCTED_PARTIAL_SRC, "fn=functools.partial", id="Cfg(fn=functools.partial)"),
        pytest.param(CONSTRUCTED_NESTED_DEF_SRC, "fn=triple", id="Cfg(fn=nested-def)"),
    ],
)
def test_given_at_a_construction_site_is_reported_at_the_argument(src, needle):
    assert codes_at(src) == {(line_of(src, needle), "JAX105")}


@pytest.mark.parametrize(
    "src, needle",
    [
        pytest.param(CONSTRUCTED_IN_CALL_BOUND_METHOD_SRC, "fn=helper.run", id="f(x, Cfg(fn=obj.method))"),
        pytest.param(CONSTRUCTED_IN_CALL_LAMBDA_SRC, "fn=lambda", id="f(x, Cfg(fn=lambda))"),
    ],
)
def test_constructor_written_into_the_jitted_call_is_reported_at_the_argument(src, needle):
    assert codes_at(src) == {(line_of(src, needle), "JAX105")}


@pytest.mark.parametrize(
    "src",
    [
        pytest.param(MODULE_FUNCTION_SRC, id="self.f=module-function"),
        pytest.param(UNBOUND_METHOD_SRC, id="self.f=Class.method"),
        pytest.param(NUMPY_FUNCTION_SRC, id="self.f=np.sin"),
        pytest.param(JNP_FUNCTION_SRC, id="self.f=jnp.tanh"),
        pytest.param(TYPE_SELF_METHOD_SRC, id="self.f=type(self).method"),
        pytest.param(BUILTIN_SRC, id="self.f=builtin"),
        pytest.param(STATICMETHOD_SRC, id="self.f=self.staticmethod"),
        pytest.param(CLASSMETHOD_SRC, id="self.f=self.classmethod"),
        pytest.param(CLASS_DEFAULT_LAMBDA_SRC, id="class-level-default-lambda"),
        pytest.param(METHOD_CALLED_NOT_STORED_SRC, id="method-called-not-stored"),
        pytest.param(POST_INIT_UNBOUND_SRC, id="object.__setattr__-Class.method"),
        pytest.param(CONSTRUCTED_MODULE_FUNCTION_SRC, id="Cfg(fn=module-function)"),
        pytest.param(CONSTRUCTED_IN_CALL_MODULE_FUNCTION_SRC, id="f(x, Cfg(fn=module-function))"),
        pytest.param(CONSTRUCTED_NUMPY_FUNCTION_SRC, id="Cfg(fn=np.sin)"),
        pytest.param(CONSTRUCTED_BUILTIN_SRC, id="Cfg(builtin)"),
        pytest.param(CONSTRUCTED_UNBOUND_METHOD_SRC, id="Cfg(fn=Class.method)"),
        pytest.param(NOT_STATIC_SRC, id="class-not-static"),
    ],
)
def test_singletons_and_calls_are_not_flagged(src):
    assert codes_at(src) == set()


# --- the programs under real JAX ----------------------------------------------------------------

# The names of the programs above: the positives trace once per fresh copy, the negatives once.
RETRACING = [
    "SELF_METHOD_SRC",
    "OTHER_METHOD_SRC",
    "LAMBDA_SRC",
    "NESTED_DEF_SRC",
    "PARTIAL_SRC",
    "PARTIAL_IMPORTED_SRC",
    "HELPER_METHOD_SRC",
    "POST_INIT_SRC",
    "STATIC_SELF_SRC",
    "CONSTRUCTED_BOUND_METHOD_SRC",
    "CONSTRUCTED_BOUND_METHOD_POSITIONAL_SRC",
    "CONSTRUCTED_LAMBDA_SRC",
    "CONSTRUCTED_PARTIAL_SRC",
    "CONSTRUCTED_NESTED_DEF_SRC",
    "CONSTRUCTED_IN_CALL_BOUND_METHOD_SRC",
    "CONSTRUCTED_IN_CALL_LAMBDA_SRC",
]
CACHED = [
    "MODULE_FUNCTION_SRC",
    "UNBOUND_METHOD_SRC",
    "NUMPY_FUNCTION_SRC",
    "JNP_FUNCTION_SRC",
    "TYPE_SELF_METHOD_SRC",
    "BUILTIN_SRC",
    "STATICMETHOD_SRC",
    "CLASSMETHOD_SRC",
    "CLASS_DEFAULT_LAMBDA_SRC",
    "METHOD_CALLED_NOT_STORED_SRC",
    "POST_INIT_UNBOUND_SRC",
    "CONSTRUCTED_MODULE_FUNCTION_SRC",
    "CONSTRUCTED_IN_CALL_MODULE_FUNCTION_SRC",
    "CONSTRUCTED_NUMPY_FUNCTION_SRC",
    "CONSTRUCTED_BUILTIN_SRC",
    "CONSTRUCTED_UNBOUND_METHOD_SRC",
    "NOT_STATIC_SRC",
]


@pytest.mark.parametrize("name, traces", [(name, 3) for name in RETRACING] + [(name, 1) for name in CACHED])
def test_jax_traces_as_the_lint_says(name, traces):
    pytest.importorskip("jax")
    namespace = {"__name__": "jax105_sample"}
    # dont_inherit: this module's `from __future__ import annotations` would turn the
    # dataclass annotations into strings that dataclasses resolves through sys.modules.
    exec(compile(textwrap.dedent(globals()[name]), "demo.py", "exec", dont_inherit=True), namespace)
    assert namespace["TRACES"][0] == traces


LOOK_ALIKES = """
import dataclasses
import functools
from typing import Callable

import jax


class Helper:
    def run(self, x):
        return x


HELPER = Helper()


@dataclasses.dataclass(frozen=True)
class Cfg:
    fn: Callable


@functools.partial(jax.jit, static_argnums=1)
def step(x, cfg):
    return cfg.fn(x)


{body}
"""


@pytest.mark.parametrize(
    "body",
    [
        # Equal every time: a bound method of one object made at import compares equal (1 trace for 4 calls).
        "def run(x):\n    return step(x, Cfg(fn=HELPER.run))\n",
        # Built once, when the module is imported: one trace, however often `step` runs.
        "step(1.0, Cfg(fn=lambda v: v * 2))\n",
    ],
    ids=["method-of-a-module-level-object", "built-once-at-import"],
)
def test_per_instance_look_alikes_that_do_not_retrace(body):
    assert codes_at(LOOK_ALIKES.replace("{body}", body)) == set()
