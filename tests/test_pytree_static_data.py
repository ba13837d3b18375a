"""JAX301-JAX304: what pytrees keep in their structure.

A flatten's `aux_data` and a dataclass-style pytree's static fields are part
of the treedef, and the treedef is part of every jit cache key: compared with
`==` on each call, and kept by reference in the cache. An array there cannot
be compared (JAX301 in `aux_data`, JAX302 in a static field: a second tree
with an equal array raises `ValueError: Exception raised while checking
equality of metadata fields of pytree`); a list or dict changed in place
changes the cached key with it, and the stale function is found again
(JAX303); a lambda, bound method or new identity-hashed object is unequal to
the last one, and jit retraces (JAX304). Claims checked on jax 0.10.2, flax
0.12.8, equinox 0.13.8.

Findings are reported at the aux expression inside the flatten (the element's
own position), or at a static field's declaration line (or the
`self.x = nnx.static(...)` line).

Single programs, their findings marked, are case files in `cases/JAX301/` to
`cases/JAX304/`; the tests here fill templates over registrations and aux
values, or check the cache.
"""

from __future__ import annotations

import pickle
import textwrap

import pytest

from helpers import codes_at, line_of, model_findings
from jaxcheck.extraction import facts_from_source

# Every spelling the templates below use.
IMPORTS = """\
import dataclasses
import functools
from dataclasses import dataclass
from functools import partial
from typing import Callable, Sequence

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
from flax import nnx, struct
from jax.tree_util import (
    GetAttrKey,
    register_dataclass,
    register_pytree_node,
    register_pytree_node_class,
    register_pytree_with_keys,
    register_pytree_with_keys_class,
)
from jaxtyping import Array, Float
from unknown_library import make_meta
"""


def at(src: str, needle: str, code: str) -> set[tuple[int, str]]:
    """`code` at the first line of `src` holding `needle`."""
    return {(line_of(src, needle), code)}


def block(text: str, spaces: int) -> str:
    """A statement or a block, re-indented to fill a `{...}` placed `spaces` deep."""
    return textwrap.indent(textwrap.dedent(text), " " * spaces).lstrip()


# --- a registered class, its flatten returning `{aux}` ------------------------------------

# `Node` is registered by `{decorator}`; `{body}` declares its fields and
# builds them, `tree_flatten` runs `{flatten}`, and `{methods}` adds methods.
# Before it, module-level things to put in `aux_data`: a list, a function, a
# plain class and a frozen dataclass; after it, `{after}`.
NODE = (
    IMPORTS
    + """

WEIGHTS = [1.0, 2.0]


def relu(v):
    return jnp.maximum(v, 0.0)


class Meta:
    def __init__(self, n):
        self.n = n


@dataclass(frozen=True)
class FrozenMeta:
    n: int


{decorator}
class Node:
    {body}

    def helper(self, v):
        return v * self.n

    @property
    def size(self):
        return self.n

    def tree_flatten(self):
        {flatten}

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)

    {methods}

{after}
"""
)

INIT = """\
def __init__(self, x, n, mask, xs, options):
    self.x = x
    self.n = n
    self.mask = np.asarray(mask)
    self.xs = list(xs)
    self.options = dict(options)
    self.marker = object()
"""

# What every `tree_flatten` of NODE returns starts so: the line of its findings.
RETURN = "return (self.x,), "


def node(
    aux: str = "(self.n,)",
    *,
    decorator: str = "@register_pytree_node_class",
    body: str = INIT,
    flatten: str | None = None,
    methods: str = "",
    after: str = "",
) -> str:
    return (
        NODE.replace("{decorator}", decorator)
        .replace("{body}", block(body, 4))
        .replace("{flatten}", block(flatten if flatten is not None else RETURN + aux, 8))
        .replace("{methods}", block(methods, 4))
        .replace("{after}", after)
    )


def init_with(old: str, new: str) -> str:
    """INIT with one of its lines changed."""
    assert old in INIT
    return INIT.replace(old, new)


# --- every way to register a flatten -----------------------------------------------------

# `Node` has every flatten a registration can name, each returning the numpy
# mask in `aux_data` on its own line; `{decorator}` and `{registration}` say
# which of them JAX calls.
REGISTERED = (
    IMPORTS
    + """

{decorator}
class Node:
    def __init__(self, x, n, mask):
        self.x = x
        self.n = n
        self.mask = np.asarray(mask)

    def tree_flatten(self):
        return (self.x,), (self.n, self.mask)

    def tree_flatten_with_keys(self):
        return ((GetAttrKey("x"), self.x),), (self.n, self.mask)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)


def flatten_node(node):
    return (node.x,), (node.n, node.mask)


def flatten_node_with_keys(node):
    return ((GetAttrKey("x"), node.x),), (node.n, node.mask)


def unflatten_node(aux, children):
    return Node(*children, *aux)


{registration}
"""
)

METHOD = "return (self.x,), (self.n, self.mask)"
METHOD_WITH_KEYS = 'return ((GetAttrKey("x"), self.x),)'
FUNCTION = "return (node.x,), (node.n, node.mask)"
FUNCTION_WITH_KEYS = 'return ((GetAttrKey("x"), node.x),)'
LAMBDA = "lambda node: ((node.x,), (node.n, node.mask))"


def registered(decorator: str = "", registration: str = "") -> str:
    return REGISTERED.replace("{decorator}", decorator).replace("{registration}", registration)


@pytest.mark.parametrize(
    "decorator, flattens",
    [
        pytest.param("@register_pytree_node_class", [METHOD], id="register_pytree_node_class"),
        pytest.param(
            "@jax.tree_util.register_pytree_node_class", [METHOD], id="jax.tree_util.register_pytree_node_class"
        ),
        pytest.param("@jtu.register_pytree_node_class", [METHOD], id="jtu.register_pytree_node_class"),
        pytest.param(
            "@register_pytree_with_keys_class", [METHOD, METHOD_WITH_KEYS], id="register_pytree_with_keys_class"
        ),
        pytest.param(
            "@jtu.register_pytree_with_keys_class", [METHOD, METHOD_WITH_KEYS], id="jtu.register_pytree_with_keys_class"
        ),
    ],
)
def test_class_decorator_registers_its_flatten_methods(decorator, flattens):
    # jax 0.10.2: jit calls tree_flatten (and tree_flatten_with_keys, for a `_with_keys_class`); a
    # second Node with an equal mask raises `ValueError: ... checking equality of metadata fields`.
    src = registered(decorator=decorator)
    assert codes_at(src) == {(line_of(src, flatten), "JAX301") for flatten in flattens}


@pytest.mark.parametrize(
    "registration, flattens",
    [
        pytest.param("register_pytree_node(Node, flatten_node, unflatten_node)", [FUNCTION], id="module-function"),
        pytest.param(
            "jax.tree_util.register_pytree_node(Node, flatten_node, unflatten_node)",
            [FUNCTION],
            id="jax.tree_util.register_pytree_node",
        ),
        pytest.param(
            "jtu.register_pytree_node(Node, flatten_node, unflatten_node)", [FUNCTION], id="jtu.register_pytree_node"
        ),
        pytest.param(
            "register_pytree_node(Node, Node.tree_flatten, Node.tree_unflatten)", [METHOD], id="unbound-method"
        ),
        pytest.param(f"register_pytree_node(Node, {LAMBDA}, unflatten_node)", [LAMBDA], id="lambda"),
        pytest.param(
            f"jtu.register_pytree_node(Node, flatten_func={LAMBDA}, unflatten_func=unflatten_node)",
            [LAMBDA],
            id="lambda-by-keyword",
        ),
        pytest.param(
            "register_pytree_with_keys(Node, flatten_node_with_keys, unflatten_node)",
            [FUNCTION_WITH_KEYS],
            id="register_pytree_with_keys",
        ),
        pytest.param(
            "jtu.register_pytree_with_keys(Node, Node.tree_flatten_with_keys, Node.tree_unflatten)",
            [METHOD_WITH_KEYS],
            id="register_pytree_with_keys-unbound-method",
        ),
        pytest.param(
            "register_pytree_with_keys(Node, flatten_node_with_keys, unflatten_node, flatten_node)",
            [FUNCTION_WITH_KEYS, FUNCTION],
            id="register_pytree_with_keys-flatten_func-by-position",
        ),
        pytest.param(
            "register_pytree_with_keys(Node, flatten_node_with_keys, unflatten_node, flatten_func=flatten_node)",
            [FUNCTION_WITH_KEYS, FUNCTION],
            id="register_pytree_with_keys-flatten_func-keyword",
        ),
    ],
)
def test_registration_call_names_the_flatten(registration, flattens):
    # jax 0.10.2: jit calls the functions named (with `flatten_func=`, both), never the methods no
    # registration names; a second Node with an equal mask raises `ValueError: ... metadata fields`.
    src = registered(registration=registration)
    assert codes_at(src) == {(line_of(src, flatten), "JAX301") for flatten in flattens}


# --- JAX301: what the field holds -----------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(INIT, id="np.asarray-in-init"),
        pytest.param(init_with("np.asarray(mask)", "jnp.zeros(3)"), id="jnp.zeros-in-init"),
        pytest.param("mask: jax.Array\n\n" + init_with("np.asarray(mask)", "mask"), id="annotated-jax.Array"),
        pytest.param("mask: np.ndarray\n\n" + init_with("np.asarray(mask)", "mask"), id="annotated-np.ndarray"),
        pytest.param(
            'mask: Float[Array, "n"]\n\n' + init_with("np.asarray(mask)", "mask"), id="annotated-jaxtyping-Float"
        ),
        pytest.param(
            init_with("np.asarray(mask)", "mask").replace("n, mask,", "n, mask: jax.Array,"),
            id="init-parameter-annotated",
        ),
    ],
)
def test_array_field_in_aux(body):
    # jax 0.10.2: numpy or jax, a second Node with an equal mask raises `ValueError: Exception raised
    # while checking equality of metadata fields of pytree`.
    src = node("(self.n, self.mask)", body=body)
    assert codes_at(src) == at(src, RETURN, "JAX301")


@pytest.mark.parametrize(
    "children, aux",
    [
        pytest.param("(self.x, self.mask)", "(self.n,)", id="array-among-children"),
        pytest.param("[self.x, jnp.asarray(self.mask)]", "self.n", id="array-made-among-children"),
    ],
)
def test_array_in_children(children, aux):
    # jax 0.10.2: children are leaves, traced: 3 Nodes with 3 different masks, 1 trace.
    src = node(flatten=f"return {children}, {aux}")
    assert codes_at(src) == set()


# --- JAX302: static fields ------------------------------------------------------------------

# A dataclass-style pytree whose `mask` field is `{field}` (JAX302 there), made
# a pytree by `{decorator}`, `{bases}` or `{after}`.
STATIC = (
    IMPORTS
    + """

{decorator}
class Model{bases}:
    w: jax.Array
    {field}

    def __call__(self, x):
        return jnp.sum(self.w * self.mask * x)

{after}
"""
)


def static(field: str, decorator: str = "", bases: str = "", after: str = "") -> str:
    return (
        STATIC.replace("{decorator}", decorator)
        .replace("{bases}", bases)
        .replace("{field}", field)
        .replace("{after}", after)
    )


@pytest.mark.parametrize(
    "src",
    [
        pytest.param(static("mask: jax.Array = eqx.field(static=True)", bases="(eqx.Module)"), id="eqx.field-static"),
        pytest.param(static("mask: jax.Array = eqx.static_field()", bases="(eqx.Module)"), id="eqx.static_field"),
        pytest.param(
            static("mask: np.ndarray = struct.field(pytree_node=False)", decorator="@struct.dataclass"),
            id="flax.struct.dataclass",
        ),
        pytest.param(
            static("mask: np.ndarray = struct.field(pytree_node=False)", bases="(struct.PyTreeNode)"),
            id="flax.struct.PyTreeNode",
        ),
        pytest.param(
            static(
                'mask: jax.Array = dataclasses.field(metadata={"static": True})',
                decorator="@jax.tree_util.register_dataclass\n@dataclasses.dataclass",
            ),
            id="register_dataclass-metadata-dict-display",
        ),
        pytest.param(
            static(
                "mask: jax.Array = dataclasses.field(metadata=dict(static=True))",
                decorator="@jax.tree_util.register_dataclass\n@dataclasses.dataclass",
            ),
            id="register_dataclass-metadata-dict-call",
        ),
        pytest.param(
            static(
                'mask: jax.Array = dataclasses.field(metadata={"static": True})',
                decorator="@jtu.register_dataclass\n@dataclasses.dataclass",
            ),
            id="jtu.register_dataclass-metadata",
        ),
        pytest.param(
            static(
                'mask: jax.Array = dataclasses.field(metadata={"static": True})',
                decorator="@register_dataclass\n@dataclasses.dataclass",
            ),
            id="register_dataclass-imported-metadata",
        ),
        pytest.param(
            static(
                "mask: jax.Array",
                decorator="@dataclasses.dataclass",
                after='register_dataclass(Model, data_fields=["w"], meta_fields=["mask"])',
            ),
            id="register_dataclass-call",
        ),
        pytest.param(
            static(
                "mask: jax.Array",
                decorator="@dataclasses.dataclass",
                after='jtu.register_dataclass(Model, ["w"], ["mask"])',
            ),
            id="register_dataclass-call-fields-by-position",
        ),
        pytest.param(
            static(
                "mask: jax.Array",
                decorator='@partial(register_dataclass, data_fields=["w"], meta_fields=["mask"])\n'
                "@dataclasses.dataclass",
            ),
            id="register_dataclass-partial-decorator",
        ),
    ],
)
def test_array_in_static_field(src):
    # jax 0.10.2, flax 0.12.8, equinox 0.13.8: the static field is aux_data: a second model with an
    # equal mask raises `ValueError: ... (Note: arrays cannot be passed as metadata fields!)`.
    assert codes_at(src) == at(src, "mask: ", "JAX302")


@pytest.mark.parametrize(
    "src",
    [
        pytest.param(static("mask: jax.Array", bases="(eqx.Module)"), id="eqx-field-not-static"),
        pytest.param(
            static("mask: np.ndarray = struct.field(pytree_node=True)", decorator="@struct.dataclass"),
            id="struct.field-pytree_node-True",
        ),
        pytest.param(
            static(
                "mask: jax.Array",
                decorator="@dataclasses.dataclass",
                after='register_dataclass(Model, data_fields=["w", "mask"], meta_fields=[])',
            ),
            id="register_dataclass-data_fields",
        ),
    ],
)
def test_array_in_a_field_that_is_not_static(src):
    # jax 0.10.2, flax 0.12.8, equinox 0.13.8: the field is a leaf: traced, 4 models, 1 trace.
    assert codes_at(src) == set()


# --- JAX303: mutable aux and static fields --------------------------------------------------


@pytest.mark.parametrize(
    "body, aux",
    [
        pytest.param(INIT, "(self.n, self.xs)", id="list-call-in-init"),
        pytest.param(INIT, "(self.n, self.options)", id="dict-call-in-init"),
        pytest.param(init_with("list(xs)", "[x * 2 for x in xs]"), "self.xs", id="list-comprehension-in-init"),
        pytest.param("xs: list[int]\n\n" + init_with("list(xs)", "xs"), "(self.n, self.xs)", id="annotated-list[int]"),
        pytest.param("options: dict\n\n" + init_with("dict(options)", "options"), "self.options", id="annotated-dict"),
    ],
)
def test_mutable_field_in_aux(body, aux):
    # jax 0.10.2: the cached treedef holds the same list: after `node.xs.append(10.0)` jit gives
    # 3.0 again where 13.0 is right, traced once (a dict: 1.0 again where 5.0 is right).
    src = node(aux, body=body)
    assert codes_at(src) == at(src, RETURN, "JAX303")


# An equinox Module with `{field}` after its array field, and `{init}`.
EQX_FIELD = (
    IMPORTS
    + """

def scale_by(v):
    return v * 2.0


class Model(eqx.Module):
    w: jax.Array
    {field}

    {init}
"""
)


def eqx_model(field: str, init: str = "") -> str:
    return EQX_FIELD.replace("{field}", field).replace("{init}", block(init, 4))


@pytest.mark.parametrize("factory", ["list", "dict"])
def test_eqx_static_field_with_a_mutable_default_factory(factory):
    # equinox 0.13.8: each model's own list, kept in the treedef by reference: after
    # `model.xs.append(10.0)` jit gives 3.0 again where 13.0 is right, traced once.
    src = eqx_model(f"xs: Sequence[int] = eqx.field(static=True, default_factory={factory})")
    assert codes_at(src) == at(src, "xs: Sequence[int]", "JAX303")


# --- JAX304: unstable aux and static fields -------------------------------------------------


@pytest.mark.parametrize(
    "aux",
    [
        pytest.param("lambda v: v * 2", id="lambda"),
        pytest.param("(self.n, lambda v: v * 2)", id="lambda-in-a-tuple"),
        pytest.param("functools.partial(relu)", id="functools.partial"),
        pytest.param("partial(relu)", id="partial-imported"),
        pytest.param("object()", id="object()"),
        pytest.param("Meta(self.n)", id="plain-class-instance"),
    ],
)
def test_new_object_made_in_the_flatten(aux):
    # jax 0.10.2: each flatten makes a new object, equal only to itself: the same Node passed
    # 4 times traces 4 times.
    src = node(aux)
    assert codes_at(src) == at(src, RETURN, "JAX304")


# --- not flagged: hashable, immutable, equal from one flatten to the next ------------------


@pytest.mark.parametrize(
    "aux",
    [
        pytest.param('np.dtype("float32")', id="np.dtype"),
        pytest.param("self.x.dtype", id="x.dtype"),
        pytest.param("jnp.float32", id="jnp.float32"),
        pytest.param("int", id="a-type"),
        pytest.param("self.x.shape", id="x.shape"),
        pytest.param("(3, 4)", id="shape-tuple"),
        pytest.param('"relu"', id="string"),
        pytest.param("(self.n, 0.5)", id="numbers"),
        pytest.param("None", id="None"),
        pytest.param("True", id="True"),
    ],
)
def test_static_metadata(aux):
    # jax 0.10.2: hashable, compared by value: a loop of 4 jitted steps returning new Nodes, 1 trace.
    src = node(aux)
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "aux",
    [
        pytest.param("relu", id="module-level-function"),
        pytest.param("Node.helper", id="Class.method"),
    ],
)
def test_function_defined_once(aux):
    # jax 0.10.2: one function object for every flatten: a loop of 4 new Nodes, 1 trace.
    src = node(aux)
    assert codes_at(src) == set()


# A state whose `initializing` is a property, flattened by a module-level function.
STATE = (
    IMPORTS
    + """

class State:
    def __init__(self, x, step):
        self.x = x
        self.step = step

    @property
    def initializing(self):
        return self.step == 0


def flatten_state(state):
    return (state.x,), (state.step, state.initializing)


def unflatten_state(aux, children):
    return State(children[0], aux[0])


register_pytree_node(State, flatten_state, unflatten_state)
"""
)


@pytest.mark.parametrize(
    "src",
    [
        pytest.param(STATE, id="state.initializing-in-a-function"),
        pytest.param(node("(self.n, self.size)"), id="self.size-in-tree_flatten"),
    ],
)
def test_property_read_in_aux(src):
    # jax 0.10.2: the property's value (a bool, an int), not a bound method: 4 jitted steps, 1 trace.
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "aux",
    [
        pytest.param('{"shape": self.x.shape, "n": self.n}', id="dict-display"),
        pytest.param("[n for n in self.xs]", id="list-comprehension"),
        pytest.param("[self.n, *self.xs]", id="list-display"),
        pytest.param("list(self.xs)", id="list-copy"),
    ],
)
def test_container_built_in_the_flatten(aux):
    # jax 0.10.2: compared by value and held by nobody else: after `node.xs.append(10.0)` the next
    # flatten differs, jit traces again and gives 13.0 (fresh); new equal Nodes, no retrace.
    src = node(aux)
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "aux",
    [
        pytest.param("tuple(self.xs)", id="tuple"),
        pytest.param("frozenset(self.xs)", id="frozenset"),
        pytest.param("tuple(sorted(self.options.items()))", id="sorted-dict-items"),
    ],
)
def test_immutable_snapshot_of_a_mutable_field(aux):
    # jax 0.10.2: a new immutable snapshot per flatten: after the list or dict changes, jit traces
    # again and the result is fresh (13.0, 5.0); new equal Nodes, no retrace.
    src = node(aux)
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "src",
    [
        pytest.param(node("(self.n, self.marker)"), id="tree_flatten"),
        pytest.param(
            eqx_model(
                "marker: object = eqx.field(static=True)",
                "def __init__(self, w):\n    self.w = w\n    self.marker = object()",
            ),
            id="eqx-static-field",
        ),
    ],
)
def test_marker_object_made_once_per_instance(src):
    # jax 0.10.2, equinox 0.13.8: one object for the instance's life, made to tell instances apart
    # (equinox's StateIndex): the same instance passed 4 times traces once.
    assert codes_at(src) == set()


@pytest.mark.parametrize(
    "field, init",
    [
        pytest.param(
            "act: Callable = eqx.field(static=True)",
            "def __init__(self, w):\n    self.w = w\n    self.act = scale_by",
            id="module-level-function",
        ),
        pytest.param(
            "act: Callable = eqx.field(static=True, default=scale_by)", "", id="module-level-function-default"
        ),
        pytest.param(
            "act: Callable = eqx.field(static=True, default=lambda x: x)", "", id="class-level-default-lambda"
        ),
    ],
)
def test_eqx_static_field_holding_one_function(field, init):
    # equinox 0.13.8: one function for every model (the default lambda is made once, with the
    # class): 4 models built alike, 1 trace.
    src = eqx_model(field, init)
    assert codes_at(src) == set()


# --- the facts survive the cache -----------------------------------------------------------

# A lambda flatten (JAX301), a dict display with string keys (JAX302) and a
# method returning a 2-tuple (JAX303).
ROUND_TRIP = """\
import dataclasses

import jax
import numpy as np


class Node:
    def __init__(self, x, n, mask):
        self.x = x
        self.n = n
        self.mask = np.asarray(mask)


jax.tree_util.register_pytree_node(Node, lambda p: ((p.x,), (p.n, p.mask)), lambda a, c: Node(*c, *a))


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Model:
    w: jax.Array
    mask: jax.Array = dataclasses.field(metadata={"static": True})


@jax.tree_util.register_pytree_node_class
class Mixture:
    def __init__(self, x, weights):
        self.x = x
        self.weights = list(weights)

    def tree_flatten(self):
        return (self.x,), (len(self.weights), self.weights)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, aux[1])
"""


def test_cache_round_trip_keeps_the_pytree_facts():
    # The facts stored in the cache give the same findings as fresh ones.
    module = facts_from_source(ROUND_TRIP, "m.py", "pkg.m", False)
    decoded = pickle.loads(pickle.dumps(module))
    assert decoded == module
    fresh = model_findings([module])
    cached = model_findings([decoded])
    assert [(x.line, x.code) for x in cached] == [(x.line, x.code) for x in fresh]
    assert {(x.line, x.code) for x in fresh} == {
        (line_of(ROUND_TRIP, "lambda p:"), "JAX301"),
        (line_of(ROUND_TRIP, "mask: jax.Array"), "JAX302"),
        (line_of(ROUND_TRIP, "return (self.x,), (len("), "JAX303"),
    }


def test_a_library_specifier_stays_known_when_the_library_is_analysed_too():
    """Analysed beside its users (a site-packages folder), `flax.struct.field` is a
    project function whose returns are no specifier jaxcheck knows by name: the
    name still decides, so its static fields are not lost to the wrapper rule."""
    library = facts_from_source(
        "import dataclasses\n\n\ndef field(pytree_node=True, **kwargs):\n"
        "    return dataclasses.field(metadata={'pytree_node': pytree_node}, **kwargs)\n",
        "flax/struct.py",
        "flax.struct",
    )
    user = textwrap.dedent(
        """\
        import jax
        import jax.numpy as jnp
        from flax import struct


        @struct.dataclass
        class Layer:
            w: jax.Array
            mask: jax.Array = struct.field(pytree_node=False)


        @jax.jit
        def apply(layer, x):
            return jnp.sum(layer.w * layer.mask * x)
        """
    )
    found = model_findings([library, facts_from_source(user, "app.py", "app")], "default")
    assert {(finding.path, finding.line, finding.code) for finding in found} == {
        ("app.py", line_of(user, "mask: jax.Array"), "JAX302")
    }
