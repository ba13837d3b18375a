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

from jaxcheck import facts as f
from jaxcheck.model.functions import CALLED, DROPPED, THROWAWAY, Made
from jaxcheck.model.project import Model
from jaxcheck.rules.base import Rule


class JitRecreatedPerCall(Rule):
    """A jit made from a fresh function object and used only where it is made."""

    code = "JAX401"
    name = "jit-recreated-per-call"
    summary = "a jit of a lambda, nested function, partial or bound method is made and thrown away on every call"
    facts = ("function-key",)

    def check(self, model: Model):
        for path in model.symbols.modules:
            for made in model.functions.made(path):
                if made.fate not in THROWAWAY or not made.transform.compiles:
                    continue
                what = _made_anew(made, model)
                if what is None:
                    continue
                in_loop = made.in_loop and not _made_before_the_loop(made, model)
                if not in_loop and made.function not in model.functions.called_repeatedly:
                    continue  # made once per program for all jaxcheck sees (at import, in `main()`, in `__init__`)
                if made.function and (model.functions.is_test(made.function) or model.functions.while_tracing(path, made.function)):
                    continue  # a test runs it once, on purpose; JAX runs traced code once per compilation
                if not made.function and model.functions.in_test_file(path):
                    continue
                yield self.finding(path, made.application.location, _message(made, what, model))


def _message(made: Made, what: str, model: Model) -> str:
    transform = made.transform.name
    if made.fate == DROPPED:
        return (
            f"`{transform}` makes a new jitted function from {what} and drops it: a transform does not change "
            "its argument in place, it returns a new function, with its own cache. Keep the result once "
            "(`step = jax.jit(step)` at module level or in `__init__`) and call that."
        )
    where = f"in `{model.symbols.short_name(made.function)}`" if made.function else "in a loop at module level"
    how = "and calls it right away" if made.fate == CALLED else "and uses it only there"
    return (
        f"`{transform}` makes a new jitted function from {what} {where} {how}: each call (or loop turn) "
        "builds a new function object with an empty cache, so JAX traces and compiles it again every time. "
        "Jit it once and keep it: at module level, in `__init__` (`self._step = jax.jit(self._step_impl)`), "
        "or in a cached factory; pass what changes as arguments (static for Python values)."
    )


def _made_anew(made: Made, model: Model) -> str | None:
    """How the message names the function given to the transform, when a new
    object is made each time that code runs; None for a function that lives on
    (a module-level function is the same object, and jit finds its cache again)."""
    if made.nested is not None:
        return f"the nested function `{made.nested.name}`"
    target = made.application.target
    if model.functions.bound_methods(made):
        if made.transform.all_static:
            return None  # equinox hashes the function: a new bound method of the same object finds its cache
        return f"the bound method `{target.ref.parent.dotted if target.ref.is_local else target.ref.name.rpartition('.')[0].rpartition('.')[2]}.{target.ref.last}`"
    return model.values.per_instance_callable(target, "")


def _made_before_the_loop(made: Made, model: Model) -> bool:
    """A nested `def` made once, outside the loop that jits it on every turn:
    the same function object each turn, whose cache jit finds again."""
    target = made.application.target
    if made.nested is not None or target is None or target.kind != f.NAME or target.ref is None or target.ref.is_local:
        return False
    nested = model.symbols.functions.get(target.ref.name)
    return nested is not None and nested.loop_depth == 0
