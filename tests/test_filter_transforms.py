"""equinox's filter transforms: which arguments they hold static (SPEC 1, 2).

`eqx.filter_jit` and `eqx.filter_pmap` trace the array leaves of every argument
and hold all other leaves static, cached like a jax.jit static argument. An
object of a plain (non-pytree) class is one such leaf, so passing the seed's
`Vehicle` (mutable, identity-hashed) is JAX101 + JAX102 at its `class` line. A
pytree (eqx.Module, NamedTuple, a registered class) and a list or dict are split
into leaves, so they are never judged as wholes. `filter_vmap`, `filter_grad`
and `filter_checkpoint` keep no cache at all: nothing passed to them is static.

Each test lints one small module in-process and compares the exact set of
(line, code) findings.
"""

from __future__ import annotations

import pytest

from helpers import codes_at, line_of

VEHICLE = """\
class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels
"""


def vehicle_static(src: str) -> set[tuple[int, str]]:
    line = line_of(src, "class Vehicle")
    return {(line, "JAX101"), (line, "JAX102")}


# How the transform is applied: (definition of a callable `g` taking (x, v), or
# None to build it from `f` with `g = <transform>(f)`).
def decorated(transform: str) -> str:
    return f"@{transform}\ndef g(x, v):\n    return x * v.num_wheels\n"


def called(transform: str) -> str:
    return f"def f(x, v):\n    return x * v.num_wheels\n\n\ng = {transform}(f)\n"


FORMS = {"decorator": decorated, "call": called}

# How the object reaches `g`: a constructor at the call, or a name bound to one.
ARGUMENTS = {
    "constructor": "g(1.0, {value})\n",
    "bound-name": "v = {value}\ng(1.0, v)\n",
}


def program(definitions: str, transform: str, form: str, passed: str, value: str) -> str:
    return (
        "import equinox as eqx\n\n\n"
        + definitions
        + "\n\n"
        + FORMS[form](transform)
        + "\n\n"
        + ARGUMENTS[passed].format(value=value)
    )


@pytest.mark.parametrize("passed", sorted(ARGUMENTS))
@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("transform", ["eqx.filter_jit", "eqx.filter_pmap"])
def test_a_plain_mutable_object_is_static_under_a_caching_filter_transform(transform, form, passed):
    src = program(VEHICLE, transform, form, passed, "Vehicle(2)")
    assert codes_at(src) == vehicle_static(src)


# Values that filter_jit/filter_pmap split into leaves (pytrees), or a frozen,
# value-hashed class: (definitions, the value passed).
NOT_STATIC = {
    "eqx.Module": (
        "class Vehicle(eqx.Module):\n    num_wheels: int\n",
        "Vehicle(2)",
    ),
    "NamedTuple": (
        "from typing import NamedTuple\n\n\nclass Vehicle(NamedTuple):\n    num_wheels: int\n",
        "Vehicle(2)",
    ),
    "register_pytree_node_class": (
        "import jax\n\n\n"
        "@jax.tree_util.register_pytree_node_class\n"
        "class Vehicle:\n"
        "    def __init__(self, num_wheels):\n"
        "        self.num_wheels = num_wheels\n\n"
        "    def tree_flatten(self):\n"
        "        return (self.num_wheels,), None\n\n"
        "    @classmethod\n"
        "    def tree_unflatten(cls, aux_data, children):\n"
        "        return cls(*children)\n",
        "Vehicle(2)",
    ),
    "frozen-dataclass": (
        "import dataclasses\n\n\n@dataclasses.dataclass(frozen=True)\nclass Vehicle:\n    num_wheels: int\n",
        "Vehicle(2)",
    ),
    "list-literal": ("", "[1.0, 2.0]"),
    "dict-literal": ("", '{"num_wheels": 2}'),
}


@pytest.mark.parametrize("passed", sorted(ARGUMENTS))
@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("transform", ["eqx.filter_jit", "eqx.filter_pmap"])
@pytest.mark.parametrize("case", sorted(NOT_STATIC))
def test_a_pytree_or_safe_value_is_not_flagged_under_a_caching_filter_transform(case, transform, form, passed):
    definitions, value = NOT_STATIC[case]
    assert codes_at(program(definitions, transform, form, passed, value)) == set()


@pytest.mark.parametrize("passed", sorted(ARGUMENTS))
@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("transform", ["eqx.filter_vmap", "eqx.filter_grad", "eqx.filter_checkpoint"])
def test_a_plain_mutable_object_is_not_static_under_a_non_caching_filter_transform(transform, form, passed):
    # The pre-filter passes files that name a static keyword: this one reaches the rules.
    src = program(VEHICLE, transform, form, passed, "Vehicle(2)") + "\n# static_argnums\n"
    assert codes_at(src) == set()


def test_the_same_module_flags_only_the_filter_jit_use():
    """One mutable class passed to filter_vmap and to filter_jit: the finding
    comes from filter_jit alone, and there is exactly one pair of it."""
    src = (
        "import equinox as eqx\n\n\n"
        + VEHICLE
        + "\n\n"
        + "def f(x, v):\n    return x * v.num_wheels\n\n\n"
        + "batched = eqx.filter_vmap(f, in_axes=(0, None))\n"
        + "compiled = eqx.filter_jit(f)\n"
        + "v = Vehicle(2)\n"
        + "batched(1.0, v)\n"
        + "compiled(1.0, v)\n"
    )
    assert codes_at(src) == vehicle_static(src)
