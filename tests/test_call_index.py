"""The model's call index (`jaxcheck.model.calls`) finds what a pass over every call finds, in the same order.

The passes that look for a few callees read the index instead of every call
of the project; a finding depends on the order they meet calls in (the first
of several wins), so the index must give the calls a pass would have met, in
its order. And the model must be freed when the run drops it: a model that
refers to itself is left to the cyclic collector.
"""

from __future__ import annotations

import gc
import weakref
from collections import defaultdict
from pathlib import Path

import pytest

from jaxcheck.extraction import facts_from_source
from jaxcheck.model.jax_api import MUTATORS, PARTIAL, TRANSFORMS
from jaxcheck.model.project import Model
from jaxcheck.rules import RULES

from helpers import library_facts

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# Two modules: a re-export (`pkg.step` is `pkg.core.step`), jits by decorator,
# by call and by `partial`, a call of what a call returns, method calls and mutators.
CORE = """\
import functools

import jax


@functools.partial(jax.jit, static_argnums=1)
def step(x, n):
    return x * n


class Config:
    def __init__(self, scale):
        self.scale = scale
        self.items = []

    def grow(self):
        self.items.append(1)


def run(x):
    cfg = Config(2)
    cfg.grow()
    fast = jax.jit(lambda y: y + 1)
    jax.jit(step, static_argnums=1)(x, 3)
    functools.partial(step, n=2)(x)
    return fast(step(x, 2))
"""
USER = """\
from pkg import step
from pkg.core import Config


def loop(xs):
    out = []
    for x in xs:
        out.append(step(x, 4))
        Config(1).grow()
    return out
"""


# An instance called (`__call__`) by whatever name holds it (a parameter, `self`, a local, a global, what a
# factory returns, the method named), and an `__init__` run by a subclass's construction.
CALLED = """\
from pkg.core import Config, step


class Scaled:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, x):
        return step(x, self.factor)

    def twice(self, x):
        return self(self(x))


class Doubled(Scaled):
    pass


class Loose(Config):
    pass


SHARED = Scaled(5)


def made(factor):
    return Doubled(factor)


def apply(xs, model: Scaled):
    twice = Doubled(2)
    built = made(3)
    Loose(3).grow()
    return [model(x) + twice(x) + twice.__call__(x) + SHARED(x) + built(x) + Scaled.__call__(model, x) for x in xs]
"""


def _modules():
    return [
        facts_from_source("from pkg.core import step\n", "pkg/__init__.py", "pkg", True),
        facts_from_source(CORE, "pkg/core.py", "pkg.core", False),
        facts_from_source(USER, "app.py", "app", False),
        facts_from_source(CALLED, "called.py", "called", False),
    ]


def _every_call(model: Model):
    """What a pass over every module's calls meets, in its order."""
    return [(path, enclosing, call) for path, module in model.symbols.modules.items() for enclosing, call in module.calls]


def test_each_question_gives_the_calls_a_full_pass_finds_in_its_order():
    model = Model(_modules())
    symbols, calls = model.symbols, model.symbols.calls
    every = _every_call(model)
    assert calls.all == every
    # Each callee once, in the order first called (built with the index, not by a pass).
    assert calls.callees == tuple(dict.fromkeys(item[2].ref for item in every if item[2].ref is not None))
    table = dict(TRANSFORMS)
    assert calls.where(lambda name: name in table or name == PARTIAL, applied=True) == [
        item for item in every if item[2].dotted in table or item[2].dotted == PARTIAL or item[2].func is not None
    ]
    assert calls.where(last=MUTATORS) == [item for item in every if item[2].ref is not None and item[2].ref.last in MUTATORS]
    # Through the re-export: `step` of `app.py` is `pkg.core.step`.
    resolved = [item for item in every if item[2].ref is not None and not item[2].ref.is_local]
    for name in ("pkg.core.step", "pkg.core.Config"):
        expected = [item for item in resolved if symbols.canonical(item[2].ref).name == name]
        assert calls.where(callees=(name,)) == expected
        assert any(path == "app.py" for path, _, _ in expected)
    # Several questions at once: each call once, in the order of the pass.
    assert calls.where(PARTIAL.__eq__, last=("grow",), callees=("pkg.core.step",)) == [
        item
        for item in every
        if item[2].dotted == PARTIAL
        or item[2].ref is not None and item[2].ref.last == "grow"
        or item in resolved and symbols.canonical(item[2].ref).name == "pkg.core.step"
    ]


def test_callees_of_each_function_are_those_its_calls_name():
    model = Model(_modules())
    for function in ("pkg.core.run", "app.loop"):
        expected = [call.ref for _, enclosing, call in _every_call(model) if enclosing == function and call.ref is not None]
        assert expected and model.symbols.calls.made_in(function) == expected


def test_a_dropped_model_is_freed_without_the_cyclic_collector():
    paths = sorted((FIXTURES / "JAX101").glob("*.py"))[:6]
    modules = [facts_from_source(path.read_text(encoding="utf-8"), str(path), path.stem) for path in paths]
    enabled = gc.isenabled()
    gc.disable()
    try:
        model = Model(modules)
        for rule in RULES:
            list(rule().check(model))
        symbols = weakref.ref(model.symbols)
        del model
        assert symbols() is None, "the model refers to itself: only the cyclic collector frees it"
    finally:
        if enabled:
            gc.enable()


def _callers_by_a_full_pass(model: Model) -> dict[str, list]:
    """Each function -> the calls that may run it, every call of the project
    resolved: files in order, a file's scopes in the order they first call,
    a scope's calls by place."""
    found = defaultdict(list)
    for path, module in model.symbols.modules.items():
        scopes = defaultdict(list)
        for enclosing, call in module.calls:
            scopes[enclosing].append(call)
        for scope, calls in scopes.items():
            for call in sorted(calls, key=lambda call: call.location):
                for callee in model.functions.callees(call.ref):
                    found[callee].append((path, scope, call))
    return found


def _calls_of_by_a_full_pass(model: Model) -> dict:
    """Each name -> the calls of it, as written and with re-exports followed."""
    found = defaultdict(list)
    for item in _every_call(model):
        ref = item[2].ref
        if ref is not None:
            found[ref].append(item)
            canonical = model.symbols.canonical(ref)
            if canonical != ref:
                found[canonical].append(item)
    return found


@pytest.mark.parametrize("real", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["cases", "equinox-flax"])
def test_what_jitted_code_bakes_in_looks_up_the_calls_a_full_pass_finds(real: bool):
    """JAX204 asks which calls may run a function (its callers, first one
    before a change wins) and which call a name: looked up by the names a
    call can go by, they are those a pass resolving every call finds."""
    model = Model([*library_facts("equinox"), *library_facts("flax")] if real else _modules())
    constants = model.constants
    callers = _callers_by_a_full_pass(model)
    assert any(name.endswith(".__call__") for name in callers) and any(name.endswith(".__init__") for name in callers)
    for function in model.symbols.functions:
        assert constants._callers(function) == callers.get(function, []), function
    position = {id(item[2]): index for index, item in enumerate(model.symbols.calls.all)}
    for name, calls in _calls_of_by_a_full_pass(model).items():
        assert constants._calls_of(name) == sorted(calls, key=lambda item: position[id(item[2])]), name


@pytest.mark.parametrize("real", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["cases", "equinox-flax"])
def test_a_name_an_instance_is_found_for_is_one_that_may_hold_instances(real: bool):
    """`may_hold_instances` answers for every callee of the project without
    resolving it, so it must say yes wherever `instance_classes` finds a
    class: the parameter, the `self`, the local, the global, what a factory
    returns."""
    model = Model([*library_facts("equinox"), *library_facts("flax")] if real else _modules())
    symbols = model.symbols
    refs = set(symbols.calls.callees) | {ref.parent for ref in symbols.calls.callees if ref.parent is not None}
    holding = [ref for ref in refs if symbols.instance_classes(ref)]
    assert len(holding) >= (100 if real else 5)
    assert [ref for ref in holding if not symbols.may_hold_instances(ref)] == []
