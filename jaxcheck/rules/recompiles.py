"""JAX4xx: compiled functions made again on every call (SPEC 3).

`jax.jit` keeps its cache on the function it returns. Made inside a function
from a lambda, a nested function, a `partial` or a bound method (a new object
each time) and thrown away there, every call starts with an empty cache and
traces and compiles again: 4 calls, 4 compilations, where 1 is needed.
Only code that runs again and again is flagged (made in a loop, or in a
function a loop or `tree_map` reaches): code run once per program pays the
one compile either way.
"""

from __future__ import annotations

import os

from jaxcheck import facts as f
from jaxcheck.model.project import Analysis
from jaxcheck.model.values import per_instance_callable
from jaxcheck.model.functions import CALLED, DROPPED, THROWAWAY, Made
from jaxcheck.rules.base import Rule, short_name
from jaxcheck.model.transforms import PARTIAL

# Code given to these runs while it is traced: once per compile, not per call.
_TRACING_LIBRARIES = ("jax.", "flax.", "equinox.")
_TRACING = frozenset(
    {
        "jit", "pjit", "pmap", "vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "jacobian", "hessian",
        "jvp", "vjp", "linearize", "checkpoint", "remat", "scan", "fori_loop", "while_loop", "cond", "switch",
        "map", "associative_scan", "custom_jvp", "custom_vjp", "defjvp", "defvjp", "eval_shape", "make_jaxpr",
        "shard_map", "smap", "named_call", "filter_jit", "filter_vmap", "filter_pmap", "filter_grad",
        "filter_value_and_grad", "filter_checkpoint", "filter_eval_shape", "filter_jvp", "filter_vjp",
        "filter_custom_jvp", "filter_custom_vjp", "split_rngs", "fork_rngs",
    }
)


def _is_test_file(path: str) -> bool:
    name = os.path.basename(path)
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


class JitRecreatedPerCall(Rule):
    """A jit made from a fresh function object and used only where it is made."""

    code = "JAX401"
    name = "jit-recreated-per-call"
    summary = "a jit of a lambda, nested function, partial or bound method is made and thrown away on every call"
    facts = ("function-key",)

    def check(self, module: f.ModuleFacts, analysis: Analysis):
        if _is_test_file(module.path):
            return  # a test calls it once, on purpose
        traced = None
        for made in analysis.made(module.path):
            if made.fate not in THROWAWAY or not made.transform.compiles:
                continue
            if not made.in_loop and made.function not in analysis.called_repeatedly:
                continue  # made once per program for all jaxcheck sees (at import, in `main()`, in `__init__`)
            what = _made_anew(made, analysis)
            if what is None:
                continue
            if made.function:
                if traced is None:
                    traced = _traced_functions(module, analysis)
                if _is_test(made.function, analysis) or _while_tracing(made.function, traced):
                    continue
            yield self.finding(module.path, made.application.location, _message(made, what, analysis))


def _message(made: Made, what: str, analysis: Analysis) -> str:
    transform = made.transform.name
    if made.fate == DROPPED:
        return (
            f"`{transform}` makes a new jitted function from {what} and drops it: a transform does not change "
            "its argument in place, it returns a new function, with its own cache. Keep the result once "
            "(`step = jax.jit(step)` at module level or in `__init__`) and call that."
        )
    where = f"in `{short_name(made.function, analysis)}`" if made.function else "in a loop at module level"
    how = "and calls it right away" if made.fate == CALLED else "and uses it only there"
    return (
        f"`{transform}` makes a new jitted function from {what} {where} {how}: each call (or loop turn) "
        "builds a new function object with an empty cache, so JAX traces and compiles it again every time. "
        "Jit it once and keep it: at module level, in `__init__` (`self._step = jax.jit(self._step_impl)`), "
        "or in a cached factory; pass what changes as arguments (static for Python values)."
    )


def _made_anew(made: Made, analysis: Analysis) -> str | None:
    """How the message names the function given to the transform, when a new
    object is made each time that code runs; None for a function that lives on
    (a module-level function is the same object, and jit finds its cache again)."""
    if made.nested is not None:
        return f"the nested function `{made.nested.name}`"
    target = made.application.target
    if analysis.bound_methods(made):
        if made.transform.all_static:
            return None  # equinox hashes the function: a new bound method of the same object finds its cache
        owner, _, name = target.ref.rpartition(".")
        return f"the bound method `{owner.partition(':')[2] or owner.rpartition('.')[2]}.{name}`"
    return per_instance_callable(target, "", analysis)


def _traced_functions(module: f.ModuleFacts, analysis: Analysis) -> set[str]:
    """The functions of the module that JAX, flax or equinox trace or transform:
    decorated by them, or handed to them (`lax.scan(body, ...)`, `jax.jit(self.step)`)."""
    traced = set()
    for function in module.functions:
        if any(_from_tracing_library(decorator) for decorator in function.decorators):
            traced.add(function.qualname)
    for _, call in module.calls:
        if _from_tracing_library(call):
            for value in (*call.args, *(value for _, value in call.keywords)):
                if value.kind == f.NAME:
                    traced.update(analysis.callees(value.ref))
    return traced


def _from_tracing_library(value: f.Value) -> bool:
    """A transform of jax, flax or equinox that traces what it is given
    (`jax.tree_util.tree_map` calls its function on every call instead)."""
    if value.ref.startswith(_TRACING_LIBRARIES) and value.ref.rpartition(".")[2] in _TRACING:
        return True
    if value.kind == f.CALL and value.ref in PARTIAL and value.args:
        return _from_tracing_library(value.args[0])
    return value.func is not None and _from_tracing_library(value.func)


def _is_test(function: str, analysis: Analysis) -> bool:
    """A test function, a method of a test class, or a helper nested in one: run once, on purpose."""
    module = analysis.index.modules[analysis.index.path_of[function]].module
    parts = function[len(module) + 1 :].split(".")
    return any(part == "test" or part.startswith(("test_", "Test")) for part in parts)


def _while_tracing(function: str, traced: set[str]) -> bool:
    """Code JAX runs while tracing: a function it traces, or one nested in it."""
    parts = function.split(".")
    return any(".".join(parts[:end]) in traced for end in range(len(parts), 0, -1))
