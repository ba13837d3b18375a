"""JAX104 dynamic-child-of-static: a static class must not hold an array or a non-static-safe object.

A class reaches a static position (an annotated static parameter, a constructor
call or a name bound to one at a call of the jitted function, or `self` of a
jitted method whose argument 0 is static) and one of its fields holds an array:
by the annotation in the class body, or by the value assigned to it (class-body
default, `self.x = ...` or `object.__setattr__(self, "x", ...)` in
`__init__`/`__post_init__`), or it is annotated with a project class that is not
static-safe. Reported at the field: the annotated line, or the assignment.

Every class here is otherwise a sound static argument (a frozen dataclass, or a
plain class that blocks `__setattr__` and hashes and compares by value over all
its fields), so the sets below are exactly JAX104's findings: JAX101, JAX102 and
JAX106 must stay silent on the class itself (one test shows a class that is at
fault itself as well).

A strict xfail marks what the implementation does not do yet: an array
inside a `tuple[...]` annotation (checked to misbehave under jax 0.10.2).

Single programs, their findings marked, are case files in `cases/JAX104/`; the
tests here fill templates over annotations and values, or check messages and
other modules.
"""

from __future__ import annotations

import textwrap

import pytest

from helpers import codes_at, jaxcheck_run, line_of, located, write, findings_of


def flagged(src: str, *needles: str) -> set[tuple[int, str]]:
    return {(line_of(src, needle), "JAX104") for needle in needles}


# A frozen dataclass `Model` whose field `w` is annotated with `{annotation}`,
# static by the parameter annotation and by the constructor at the call.
ANNOTATED_FIELD = """\
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
{imports}


@dataclasses.dataclass(frozen=True)
class Model:
    w: {annotation}
    n: int


@partial(jax.jit, static_argnums=1)
def f(x, model: Model):
    return x * model.n


f(1.0, Model(jnp.ones(3), 2))
"""


@pytest.mark.parametrize(
    "imports, annotation",
    [
        pytest.param("", "jax.Array", id="jax.Array"),
        pytest.param("", "jnp.ndarray", id="jnp.ndarray"),
        pytest.param("", "np.ndarray", id="np.ndarray"),
        pytest.param("from jax import Array", "Array", id="from-jax-import-Array"),
        pytest.param("from jaxtyping import Array, Float", 'Float[Array, "n"]', id="jaxtyping-Float"),
        pytest.param("from jaxtyping import Array", "Array", id="jaxtyping-Array"),
        pytest.param("from typing import Optional", "Optional[jax.Array]", id="Optional"),
        pytest.param("", "jax.Array | None", id="union-with-None"),
        pytest.param("", "'jax.Array'", id="string-annotation"),
        pytest.param(
            "import numpy.typing as npt",
            "npt.NDArray",
            id="npt.NDArray",
        ),
    ],
)
def test_array_annotation_in_class_body(imports, annotation):
    src = ANNOTATED_FIELD.format(imports=imports, annotation=annotation)
    assert codes_at(src) == flagged(src, f"w: {annotation}")


@pytest.mark.parametrize(
    "imports, annotation",
    [("import jax.typing", "jax.typing.ArrayLike"), ("from jax.typing import ArrayLike", "ArrayLike")],
)
def test_array_like_annotation_admits_scalars(imports, annotation):
    # `ArrayLike` includes Python scalars (`eps: ArrayLike = 1e-6`): it says nothing sure.
    src = ANNOTATED_FIELD.format(imports=imports, annotation=annotation).replace("Model(jnp.ones(3), 2)", "Model(1e-6, 2)")
    assert codes_at(src) == set()
    # What the constructor is given does: an array there is hashed by the generated `__hash__`.
    src = ANNOTATED_FIELD.format(imports=imports, annotation=annotation)
    assert codes_at(src) == flagged(src, f"w: {annotation}")


# The value assigned: a class-body default.


@pytest.mark.parametrize("value", ["jnp.zeros(3)", "np.zeros(3)", "jnp.arange(4)", "np.eye(2)", "jax.random.PRNGKey(0)"])
def test_class_body_default_of_a_field(value):
    # The annotation names no array type; the default is one.
    src = f"""
        import dataclasses
        import typing
        import jax
        import jax.numpy as jnp
        import numpy as np

        @dataclasses.dataclass(frozen=True)
        class Model:
            n: int
            w: typing.Any = {value}

        @jax.jit(static_argnums=0)
        def f(model: Model, x):
            return x * model.n + model.w.sum()

        f(Model(2), 1.0)
    """
    assert codes_at(src) == flagged(src, f"w: typing.Any = {value}")


@pytest.mark.parametrize("value", ["jnp.zeros(3)", "np.zeros(3)"])
def test_unannotated_class_body_default_is_a_class_constant(value):
    # Not an instance field: not hashed, not per instance. Tables and grids kept
    # this way are common and never changed (a numpy one changed in place would
    # go stale, 6.0 then 6.0 on jax 0.10.2; not followed, for precision).
    src = f"""
        import dataclasses
        import jax
        import jax.numpy as jnp
        import numpy as np

        @dataclasses.dataclass(frozen=True)
        class Model:
            n: int
            w = {value}

        @jax.jit(static_argnums=0)
        def f(model: Model, x):
            return x * model.n + model.w.sum()

        f(Model(2), 1.0)
    """
    assert codes_at(src) == set()


# The value assigned in `__init__`: a plain class that is immutable once built
# and hashes and compares by value over both fields.
INIT_ASSIGNED = """\
import jax
import jax.numpy as jnp
import numpy as np


class Model:
    def __init__(self, w, n):
        self.w = {value}
        self.n = n

    def __setattr__(self, name, value):
        if name in self.__dict__:
            raise AttributeError(name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise AttributeError(name)

    def __hash__(self):
        return hash((tuple(self.w.tolist()), self.n))

    def __eq__(self, other):
        return type(other) is type(self) and (tuple(self.w.tolist()), self.n) == (tuple(other.w.tolist()), other.n)


@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x * model.w * model.n


f(Model([1.0, 2.0], 2), 1.0)
"""


@pytest.mark.parametrize(
    "value",
    [
        "np.asarray(w)",
        "np.array(w, dtype=np.float32)",
        "jnp.asarray(w)",
        "jnp.array(w)",
        "jnp.ones(len(w))",
        "jnp.full(len(w), 2.0)",
        "jnp.linspace(0.0, 1.0, len(w))",
        "np.zeros(len(w))",
        "jax.random.normal(jax.random.key(0), (len(w),))",
        "jax.random.uniform(jax.random.PRNGKey(0), (len(w),))",
    ],
)
def test_array_assigned_in_init(value):
    src = INIT_ASSIGNED.format(value=value)
    assert codes_at(src) == flagged(src, f"self.w = {value}")


# A field annotated with a project class that is not static-safe.

# Pending: the brief (and SPEC 3's JAX104 row) put a not-static-safe object held
# in a field under JAX104, at the field. The implementation makes the held class
# static itself instead and reports it with JAX101/JAX102/JAX106 at its `class`
# line, the message naming the field. Strict, so that either way the choice is
# written down here once it is made.


NOT_STATIC_SAFE_INNER = [
    pytest.param(
        """
        class Inner:
            def __init__(self, k):
                self.k = k
        """,
        id="mutable-identity-hashed-plain-class",
    ),
    pytest.param(
        """
        @dataclasses.dataclass(unsafe_hash=True)
        class Inner:
            k: int
        """,
        id="mutable-value-hashed-dataclass",
    ),
    pytest.param(
        """
        @dataclasses.dataclass(frozen=True, eq=False)
        class Inner:
            k: int
        """,
        id="identity-hashed-frozen-dataclass",
    ),
    pytest.param(
        """
        @dataclasses.dataclass
        class Inner:
            k: int
        """,
        id="unhashable-dataclass",
    ),
]


def held_inner(inner: str) -> str:
    """A module: `inner` (a class `Inner`) held in field `inner` of a frozen, static `Model`."""
    return (
        "import dataclasses\n\nimport jax\n\n\n"
        + textwrap.dedent(inner).strip("\n")
        + """


@dataclasses.dataclass(frozen=True)
class Model:
    inner: Inner
    n: int


@jax.jit(static_argnums=0)
def f(model: Model, x):
    return x * model.n * model.inner.k


f(Model(Inner(3), 2), 1.0)
"""
    )


@pytest.mark.parametrize("inner", NOT_STATIC_SAFE_INNER)
def test_held_object_that_is_not_static_safe_is_reported(inner):
    # Whichever rule reports it (see _HELD_CLASS), it is not silent.
    assert codes_at(held_inner(inner))


@pytest.mark.parametrize("inner", NOT_STATIC_SAFE_INNER)
def test_field_annotated_with_a_class_that_is_not_static_safe(inner):
    # JAX104 at the field; the held class is static too and is judged at its own line.
    src = held_inner(inner)
    found = codes_at(src)
    assert flagged(src, "inner: Inner") <= found
    assert {code for line, code in found if line == line_of(src, "class Inner")} & {"JAX101", "JAX102", "JAX106"}


@pytest.mark.parametrize("value", ["[1, 2]", "{}", "{1, 2}", "dict(a=1)"])
def test_mutable_container_set_in_init(value):
    src = INIT_ASSIGNED.format(value=value).replace("tuple(self.w.tolist())", "repr(self.w)").replace(
        "tuple(other.w.tolist())", "repr(other.w)"
    )
    assert codes_at(src) == flagged(src, f"self.w = {value}")


@pytest.mark.xfail(strict=True, reason="an array inside a container annotation (`tuple[jax.Array, ...]`) is not seen")
def test_tuple_of_arrays_annotation():
    # Checked on jax 0.10.2: a tuple holding an array is unhashable; JAX raises the Non-hashable ValueError.
    src = ANNOTATED_FIELD.format(imports="", annotation="tuple[jax.Array, ...]").replace("jnp.ones(3)", "(jnp.ones(3),)")
    assert codes_at(src) == flagged(src, "w: tuple[jax.Array, ...]")


# Every way of reaching a static position.


def test_message_names_the_field_and_the_static_use():
    src = textwrap.dedent(
        """\
        import dataclasses
        import jax

        @dataclasses.dataclass(frozen=True)
        class Model:
            w: jax.Array
            n: int

        def apply(x, model):
            return x * model.n

        g = jax.jit(apply, static_argnums=1)
        g(1.0, Model(jax.numpy.ones(3), 2))
        """
    )
    findings, failed = findings_of(src, "demo.py")
    assert not failed, findings
    assert [(finding.line, finding.code, finding.column) for finding in findings] == [(6, "JAX104", 5)]
    message = findings[0].message
    assert "`Model.w`" in message, message
    assert "array" in message, message
    assert "at line 13" in message, message


def test_class_in_another_module_is_reported_in_its_own_file(tmp_path):
    write(tmp_path, "pkg/__init__.py", "")
    write(
        tmp_path,
        "pkg/models.py",
        "import dataclasses\n\nimport jax\n\n\n@dataclasses.dataclass(frozen=True)\nclass Model:\n"
        "    w: jax.Array\n    n: int\n",
    )
    write(
        tmp_path,
        "pkg/run.py",
        "from functools import partial\n\nimport jax\nimport jax.numpy as jnp\n\nfrom pkg.models import Model\n\n\n"
        "@partial(jax.jit, static_argnums=1)\ndef apply(x, model):\n    return x * model.n\n\n\n"
        "apply(1.0, Model(jnp.ones(3), 2))\n",
    )
    completed = jaxcheck_run("check", "--no-cache", "pkg", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    assert located(completed.stdout) == {("pkg/models.py", 8, 5, "JAX104")}
    assert "pkg/run.py:14" in completed.stdout  # the static use: `apply(1.0, Model(...))`


# Not flagged.


@pytest.mark.parametrize(
    "field",
    [
        "dtype: np.dtype",
        "dtype: jnp.dtype = jnp.float32",
        "dtype: type = np.float32",
        "shape: tuple[int, ...] = (2, 3)",
        "shape: tuple = (2, 3)",
        "n: int = 3",
        "name: str = 'w'",
        "scale: float = 1.5",
        "dtype = np.float32",
    ],
)
def test_dtype_shape_and_primitive_fields(field):
    src = f"""
        import dataclasses
        import jax
        import jax.numpy as jnp
        import numpy as np

        @dataclasses.dataclass(frozen=True)
        class Model:
            {field}

        @jax.jit(static_argnums=0)
        def f(model: Model, x):
            return x

        f(Model(), 1.0)
    """
    assert codes_at(src) == set()
