"""Regression tests for bugs a review found with small scratch programs.

Each test lints one trimmed program in-process and asserts the exact set of
(line, code) findings (SPEC 3). The `*_SRC` programs are plain, runnable JAX
programs (the one-line comment on each test says what jax 0.10.2 does with
it), so the expectation is checked against JAX and not only against jaxcheck.
"""

from __future__ import annotations

import sys
import textwrap

import pytest

from helpers import codes_at, line_of, findings_of


# --- false positives ----------------------------------------------------------------------------

# fp1: numpy's scalar draws are Python scalars; arrays at a static position stay JAX106.
FP1_SRC = """
    from functools import partial
    import jax
    import numpy as np

    @partial(jax.jit, static_argnums=1)
    def h(x, n):
        return x * n

    h(1.0, np.random.randint(3))
    h(1.0, np.random.normal())
    h(1.0, jax.random.normal(jax.random.key(0)))
    h(1.0, np.zeros(3))
"""


def test_fp1_numpy_random_scalars_are_hashable_but_arrays_are_not():
    # jax 0.10.2: randint(3) is an int and normal() a float, both jit fine; the two arrays raise "Non-hashable static arguments".
    assert codes_at(FP1_SRC) == {
        (line_of(FP1_SRC, "jax.random.normal(jax.random.key(0))"), "JAX106"),
        (line_of(FP1_SRC, "np.zeros(3)"), "JAX106"),
    }


# fp2/fp7: an abstract, protocol or base annotation says nothing about the values passed.
FP2_ABC_SRC = """
    import abc
    from dataclasses import dataclass
    from functools import partial
    import jax

    class Activation(abc.ABC):
        @abc.abstractmethod
        def __call__(self, x): ...

    @dataclass(frozen=True)
    class Relu(Activation):
        slope: float = 0.0

        def __call__(self, x):
            return x * self.slope

    @partial(jax.jit, static_argnames="act")
    def apply(x, act: Activation):
        return act(x)

    apply(1.0, act=Relu())
"""

FP7_PROTOCOL_SRC = """
    from typing import NamedTuple, Protocol
    from functools import partial
    import jax

    class Schedule(Protocol):
        def __call__(self, step: int) -> float: ...

    class Constant(NamedTuple):
        value: float

        def __call__(self, step):
            return self.value

    @partial(jax.jit, static_argnames="schedule")
    def lr(step, schedule: Schedule):
        return schedule(step)

    lr(0, schedule=Constant(0.1))
"""

BASE_WITH_SUBCLASS_SRC = """
    from dataclasses import dataclass
    from functools import partial
    import jax

    class Base:
        pass

    @dataclass(frozen=True)
    class Sub(Base):
        n: int = 2

    @partial(jax.jit, static_argnames="b")
    def f(x, b: Base):
        return x * b.n

    f(1.0, b=Sub())
"""


@pytest.mark.parametrize(
    "src",
    [
        pytest.param(FP2_ABC_SRC, id="fp2-abc.ABC"),
        pytest.param(FP7_PROTOCOL_SRC, id="fp7-typing.Protocol"),
        pytest.param(BASE_WITH_SUBCLASS_SRC, id="base-with-project-subclass"),
    ],
)
def test_fp2_fp7_annotation_with_abstract_or_base_class_is_not_judged_alone(src):
    # jax 0.10.2: each runs, and a second call with an equal value hits the cache (`_cache_size()` stays 1).
    assert codes_at(src) == set()


# fp3: `super().__hash__()` is object's identity hash, reported at the `def __hash__` line.
FP3_SRC = """
    from functools import partial
    import jax

    class Cfg:
        def __init__(self, n):
            self.n = n

        def __eq__(self, other):
            return isinstance(other, Cfg) and other.n == self.n

        def __hash__(self):
            return super().__hash__()

    @partial(jax.jit, static_argnums=1)
    def f(x, cfg):
        return x * cfg.n

    f(1.0, Cfg(2))
"""


def test_fp3_hash_deferring_to_super_is_identity_hash_at_the_def():
    # jax 0.10.2: two equal Cfg(2) compile twice (`_cache_size()` 2), and after `c.n = 3` f(1.0, c) still returns 2.0.
    assert codes_at(FP3_SRC) == {
        (line_of(FP3_SRC, "class Cfg"), "JAX101"),
        (line_of(FP3_SRC, "def __hash__"), "JAX102"),
    }


# fp4: a write that comes before the static use in the same scope is not the mutation to name.
FP4_SRC = """
    from functools import partial
    import jax

    class Cfg:
        def __init__(self):
            self.n = 1

        def __eq__(self, other):
            return type(other) is Cfg and other.n == self.n

        def __hash__(self):
            return hash(self.n)

    @partial(jax.jit, static_argnums=1)
    def f(x, cfg):
        return x * cfg.n

    def main():
        cfg = Cfg()
        cfg.n = 3
        return f(1.0, cfg)
"""


def _findings(src: str):
    findings, failed = findings_of(textwrap.dedent(src), "demo.py")
    assert not failed, findings
    return findings


def test_fp4_write_before_the_static_use_is_not_named_as_the_mutation():
    # jax 0.10.2: main() returns 3.0, the write before the call is seen, so it is not a stale-cache mutation.
    findings = _findings(FP4_SRC)
    assert {(finding.line, finding.code) for finding in findings} == {(line_of(FP4_SRC, "class Cfg"), "JAX101")}
    (message,) = [finding.message for finding in findings]
    assert "cfg.n = ..." not in message
    assert "nothing here changes it after the first call" in message
    # No evidence of a stale result: the default profile reports nothing.
    assert codes_at(FP4_SRC, profile="default") == set()


def test_fp4_control_write_after_the_static_use_is_named():
    # jax 0.10.2: with the write after a first call, main() returns the stale 1.0, so this write is the one to name.
    src = FP4_SRC.replace("        cfg.n = 3\n", "        f(1.0, cfg)\n        cfg.n = 3\n")
    findings = _findings(src)
    assert {(finding.line, finding.code) for finding in findings} == {(line_of(src, "class Cfg"), "JAX101")}
    (message,) = [finding.message for finding in findings]
    assert f"after `cfg.n = ...` at demo.py:{line_of(src, 'cfg.n = 3')}" in message


# fp5: a comprehension variable or lambda parameter shadows the module-level list.
FP5_SRC = """
    from functools import partial
    import jax

    @partial(jax.jit, static_argnums=1)
    def f(x, sizes):
        return x * len(sizes)

    sizes = [1, 2, 3]
    per_pair = [f(1.0, sizes) for sizes in [(1, 2), (2, 3)]]
    run = lambda sizes: f(1.0, sizes)
    run(tuple(sizes))
"""


def test_fp5_comprehension_and_lambda_names_shadow_a_module_list():
    # jax 0.10.2: runs; the shadowing names hold tuples (1, 2), (2, 3) and (1, 2, 3).
    assert codes_at(FP5_SRC) == set()


def test_fp5_control_the_module_list_itself_is_unhashable():
    # jax 0.10.2: f(1.0, [1, 2, 3]) raises "Non-hashable static arguments".
    src = FP5_SRC + "    f(1.0, sizes)\n"
    last_line = len(textwrap.dedent(src).splitlines())
    assert codes_at(src) == {(last_line, "JAX106")}


# fp6: a base-class helper called only from `__init__` initialises; it does not mutate.
FP6_SRC = """
    from functools import partial
    import jax

    class Base:
        def _setup(self, n):
            self.n = n

    class Cfg(Base):
        def __init__(self, n):
            self._setup(n)

        def __eq__(self, other):
            return type(other) is type(self) and other.n == self.n

        def __hash__(self):
            return hash((type(self), self.n))

    @partial(jax.jit, static_argnums=1)
    def f(x, cfg):
        return x * cfg.n

    f(1.0, Cfg(2))
"""


def test_fp6_base_helper_called_from_init_is_reported_at_the_class():
    # jax 0.10.2: f(1.0, Cfg(2)) twice compiles once; Cfg is a mutable plain class that f reads, so JAX101 at its class line.
    assert codes_at(FP6_SRC) == {(line_of(FP6_SRC, "class Cfg(Base)"), "JAX101")}


# fp8: frozen dataclasses whose hash is by value, or whose options cannot be read.
FP8_EQ_SRC = """
    from dataclasses import dataclass
    from functools import partial
    import jax

    @dataclass(frozen=True)
    class Cfg:
        name: str
        n: int

        def __eq__(self, other):
            return isinstance(other, Cfg) and other.name.lower() == self.name.lower() and other.n == self.n

    @partial(jax.jit, static_argnums=1)
    def f(x, cfg):
        return x * cfg.n

    f(1.0, Cfg("a", 2))
"""

FP8_OPTIONS_SRC = """
    from dataclasses import dataclass
    from functools import partial
    import jax

    FROZEN = dict(frozen=True)

    @dataclass(**FROZEN)
    class Opts:
        n: int = 2

    @partial(jax.jit, static_argnums=1)
    def f(x, opts):
        return x * opts.n

    f(1.0, Opts())
"""


def test_fp8_frozen_dataclass_with_own_eq_gets_a_field_hash():
    # jax 0.10.2: hash(Cfg("a", 2)) works (dataclass adds a field hash) and two equal calls compile once.
    assert codes_at(FP8_EQ_SRC) == set()


def test_fp8_dataclass_options_not_literal_are_not_guessed():
    # jax 0.10.2: with FROZEN = dict(frozen=True) two Opts() calls compile once and `opts.n = 3` raises FrozenInstanceError.
    assert codes_at(FP8_OPTIONS_SRC) == set()


# --- missed findings ----------------------------------------------------------------------------

# miss1: `__hash__` by value but no `__eq__`: equal instances still compare by identity.
MISS1_SRC = """
    from functools import partial
    import jax

    class Cfg:
        def __init__(self, n):
            object.__setattr__(self, "n", n)

        def __setattr__(self, name, value):
            raise AttributeError("frozen")

        def __hash__(self):
            return hash(self.n)

    @partial(jax.jit, static_argnums=1)
    def f(x, cfg):
        return x * cfg.n

    f(1.0, Cfg(2))
"""


def test_miss1_hash_without_eq_is_identity_at_the_def():
    # jax 0.10.2: three calls with equal Cfg(2) compile three times (`_cache_size()` 3).
    assert codes_at(MISS1_SRC) == {(line_of(MISS1_SRC, "def __hash__"), "JAX102")}


# t2: a jitted function defined and called inside another function.
T2_SRC = """
    from functools import partial
    import jax

    def outer(x):
        @partial(jax.jit, static_argnums=1)
        def inner(x, opts):
            return x * len(opts)
        return inner(x, [1, 2])
"""


def test_t2_nested_jitted_function_called_with_a_list():
    # jax 0.10.2: outer(1.0) raises "Non-hashable static arguments". (`inner` is
    # jitted anew on every call of `outer`, but nothing calls `outer` in a loop: no JAX401.)
    assert codes_at(T2_SRC) == {(line_of(T2_SRC, "inner(x, [1, 2])"), "JAX106")}


# t3: a mutable class defined inside a function and passed static there.
T3_SRC = """
    from functools import partial
    import jax

    def outer(x):
        class Cfg:
            def __init__(self):
                self.n = 2
        @partial(jax.jit, static_argnums=1)
        def inner(x, cfg):
            return x * cfg.n
        return inner(x, Cfg())
"""


def test_t3_local_mutable_class_passed_static():
    # jax 0.10.2: runs (2.0); a plain class hashes by identity, so each new Cfg() recompiles and a change is never seen.
    line = line_of(T3_SRC, "class Cfg")
    assert codes_at(T3_SRC) == {(line, "JAX101"), (line, "JAX102")}


# --- crashes -------------------------------------------------------------------------------------

T1_SRC = """
    from functools import partial
    import jax

    @partial(jax.jit, static_argnames=("missing",))
    def f(x, **kw):
        return x
"""

CLASS_KWARGS_SRC = """
    from functools import partial
    import jax

    kw = {}

    class A(**kw):
        pass

    @partial(jax.jit, static_argnums=1)
    def f(x, a):
        return x

    f(1.0, A())
"""


@pytest.mark.parametrize(
    "src",
    [
        pytest.param(T1_SRC, id="t1-static-argname-only-in-kwargs"),
        pytest.param(CLASS_KWARGS_SRC, id="class-with-double-star-keywords"),
    ],
)
def test_t1_no_crash_and_no_finding(src):
    # codes_at fails on a jaxcheck crash; `class A(**kw)` may get any metaclass, so it is left unjudged.
    assert codes_at(src) == set()


def _long_sum(terms: int) -> str:
    return (
        "import jax\n"
        "from functools import partial\n"
        "@partial(jax.jit, static_argnums=0)\n"
        "def f(n): return n\n"
        "x = " + " + ".join(f"a{i}" for i in range(terms)) + "\n"
    )


@pytest.mark.parametrize("terms", [490, 700])
def test_deep_long_sum_is_not_bad_input(terms):
    # CPython compiles these sums (it gives up near 3000 terms), so they are valid files, not JAX000.
    src = _long_sum(terms)
    compile(src, "deep.py", "exec")
    assert codes_at(src) == set()


def test_a_sum_of_1500_terms_is_python_and_analysed_where_the_interpreter_allows():
    # Every supported Python compiles it, so it is never "cannot parse" (ast.parse
    # alone refuses it on 3.12). Python 3.11 and 3.13 run LibCST's code
    # generation (the position pass) through it; 3.12 counts those calls against
    # its C recursion limit (1500 on 3.12.1), and jaxcheck says it could not
    # analyse the file, not that the file is bad.
    src = _long_sum(1500)
    compile(src, "deep.py", "exec")
    findings, failed = findings_of(src, "demo.py")
    assert not failed
    if sys.version_info[:2] == (3, 12):
        assert all(f.code == "JAX000" and f.message.startswith("cannot analyse") for f in findings), findings
    else:
        assert findings == []
