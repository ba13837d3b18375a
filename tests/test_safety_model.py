"""The static-safety model over the libraries that write classes: attrs,
flax.struct, equinox. Each decorator or base decides mutability and hashing
as the library does (its defaults for `frozen`, `eq` and the hash).

Single programs, their findings marked, are case files in `cases/JAX104/`.
"""

from __future__ import annotations

import pytest

from helpers import codes_at, line_of

USE = """
@functools.partial(jax.jit, static_argnums=1)
def f(x, c):
    return x * c.n

f(1.0, C(1))
"""


def program(definition: str) -> str:
    return "import functools\nimport jax\nimport attr, attrs\nimport equinox as eqx\nfrom flax import struct\n\n" + definition + USE


@pytest.mark.parametrize(
    "definition",
    [
        "class C(eqx.Module):\n    n: int\n",
        "@struct.dataclass\nclass C:\n    n: int\n",
        "class C(struct.PyTreeNode):\n    n: int\n",
        "@attr.s(frozen=True)\nclass C:\n    n = attr.ib()\n",
        "@attrs.frozen\nclass C:\n    n: int\n",
        "@attrs.define(frozen=True)\nclass C:\n    n: int\n",
        "@attr.frozen\nclass C:\n    n: int\n",
    ],
    ids=["eqx.Module", "flax.struct.dataclass", "PyTreeNode", "attr.s-frozen", "attrs.frozen", "attrs.define-frozen", "attr.frozen"],
)
def test_frozen_by_construction_is_static_safe(definition):
    assert codes_at(program(definition)) == set()


@pytest.mark.parametrize(
    "definition, code",
    [
        ("@attrs.define\nclass C:\n    n: int\n", "JAX106"),  # eq and not frozen: __hash__ is None
        ("@attr.s\nclass C:\n    n = attr.ib()\n", "JAX106"),
        ("@attr.s(hash=True)\nclass C:\n    n = attr.ib()\n", "JAX101"),  # hashable, but mutable
        ("@struct.dataclass(frozen=False)\nclass C:\n    n: int\n", "JAX106"),
    ],
    ids=["attrs.define", "attr.s", "attr.s-hash", "struct.dataclass-not-frozen"],
)
def test_mutable_by_construction_is_flagged(definition, code):
    src = program(definition)
    assert codes_at(src) == {(line_of(src, "class C"), code)}
