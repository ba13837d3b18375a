"""The functions transforms make, and what becomes of each.

A jitted function keeps its cache for as long as it lives. Kept (stored,
returned, called again and again), it bakes in what it closed over when it
was traced (JAX2xx); made anew and thrown away on every call, it compiles
on every call (JAX401). Which of the two happens is read from the facts:
how the transform's result is used where it is made.
"""

from __future__ import annotations

from dataclasses import dataclass

from jaxcheck import facts as f
from jaxcheck.model.symbols import Index
from jaxcheck.model.transforms import Application, Transform, application

KEPT = "kept"  # stored, returned or passed on: lives past the call that made it
REUSED = "reused"  # held in a local and called more than once
CALLED = "called"  # called where it is made: `jax.jit(f)(x)`
DROPPED = "dropped"  # made as a statement: nothing keeps it
ONCE = "once"  # held in a local called once, or made and called on each turn of a loop
THROWAWAY = frozenset({CALLED, DROPPED, ONCE})


@dataclass(frozen=True)
class Made:
    """A transform applied in a module."""

    application: Application
    function: str  # the enclosing function's qualname; "" at module level
    fate: str
    nested: f.FunctionFacts | None = None  # the nested function a decorator applies it to
    # For a lambda or nested function: the attributes it reads of parameters
    # of the function it is made in, as refs ("pkg.mod.Model.__init__:self.scale").
    reads: tuple[str, ...] = ()
    in_loop: bool = False  # made on every turn of a loop of the function it is in

    @property
    def transform(self) -> Transform:
        return self.application.transform


def made_functions(module: f.ModuleFacts, index: Index, table: dict[str, Transform]) -> list[Made]:
    """Every application of a transform to a function in the module,
    as a call (`jax.jit(fn)`) or as the decorator of a function nested in a function."""
    called = {value.func.key for _, value in module.calls if value.func is not None}
    dropped = set(module.discarded)
    looped = set(module.looped)
    closures = {closure.location: closure.reads for closure in module.closures}
    made = []
    for function, value in module.calls:
        applied = application(value, table)
        if applied is None or applied.target is None:
            continue
        in_loop = value.location in looped
        if value.key in called:
            fate = CALLED
        elif value.location in dropped:
            fate = DROPPED
        else:
            fate, in_loop = _fate_of_binding(module, index, value)
        target = applied.target
        reads = closures.get(target.location, ()) if target.kind == f.LAMBDA else ()
        if target.kind == f.NAME and target.ref in index.functions:
            reads = index.functions[target.ref].free_reads
        made.append(Made(applied, function, fate, reads=reads, in_loop=in_loop))
    for nested in module.functions:
        parent = nested.qualname.rpartition(".")[0]
        if nested.class_qualname or parent not in index.functions:
            continue
        for decorator in nested.decorators:
            applied = application(decorator, table)
            if applied is not None and applied.target is None:
                use = next((use for use in index.functions[parent].locals if use.location == nested.location), None)
                in_loop = use is not None and use.loop_depth > 0
                made.append(Made(applied, parent, _fate(use), nested, nested.free_reads, in_loop))
    return made


def _fate_of_binding(module: f.ModuleFacts, index: Index, value: f.Value) -> tuple[str, bool]:
    """(fate, made in a loop) of a transform's result assigned to a name."""
    for ref in index.bound_names(module.path, value):
        function, sep, name = ref.partition(":")
        if sep and function in index.functions:
            use = next((use for use in index.functions[function].locals if use.name == name), None)
            return _fate(use), use is not None and use.loop_depth > 0
    return KEPT, False


def _fate(use: f.LocalUse | None) -> str:
    """A local called once, or bound and called on the same turn of a loop, is a throwaway."""
    if use is None or use.escapes:
        return KEPT
    if not use.calls:
        return DROPPED
    if use.calls and all(depth == use.loop_depth for depth in use.calls) and (use.loop_depth or len(use.calls) == 1):
        return ONCE
    return REUSED
