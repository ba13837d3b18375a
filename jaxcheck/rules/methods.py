"""JAX2xx: transforms applied to methods and to closures over `self` (SPEC 3).

A jitted function sees its arguments as arrays or pytrees of arrays, or as
static values. `self` of a plain class is neither unless it is made static,
so `@jax.jit` on such a method fails the moment it is called. Reached any
other way (a bound method, a lambda reading `self.x`), the object's state is
read once, while tracing, and compiled in as constants: the jitted function
goes stale when that state is assigned again.
"""

from __future__ import annotations

from jaxcheck import facts as f
from jaxcheck.model.evidence import distinct, later_changes
from jaxcheck.model.functions import PASSED, REUSED, THROWAWAY, Made
from jaxcheck.model.project import Model
from jaxcheck.model.state import Change, Reads
from jaxcheck.model.transforms import application
from jaxcheck.rules.base import Rule


class JitMethodSelfNotStatic(Rule):
    """`@jax.jit` on a method of a plain class, with `self` not static.

    JAX tries to read `self` as an array and raises `TypeError: Error
    interpreting argument ... as an abstract array` on the first call.
    """

    code = "JAX202"
    name = "jit-method-self-not-static"
    summary = "a jit decorator on a method of a class that is not a pytree, with self not static"
    facts = ("self-not-static",)

    def check(self, model: Model):
        symbols = model.symbols
        for function in symbols.functions.values():
            if not function.is_instance_method:
                continue
            cls = function.class_qualname
            # A class jaxcheck cannot judge may be a pytree through a base it cannot see;
            # the `self` of an abstract class's method is a subclass's, which may be one.
            if symbols.is_pytree(cls) or model.classes.traits(cls) is None or symbols.is_abstract(cls):
                continue
            if any(symbols.is_pytree(sub) for sub in symbols.all_subclasses(cls)):
                continue
            for decorator in function.decorators:
                applied = application(decorator, model.options.table)
                if applied is None or applied.spec is None or applied.target is not None:
                    continue
                spec = applied.spec
                if not spec.transform.traces_self:
                    continue
                count = len(function.positional)
                if function.self_name in spec.argnames or any(n == 0 or n + count == 0 for n in spec.argnums):
                    continue
                name = symbols.short_name(function.qualname)
                yield self.finding(
                    symbols.path_of[function.qualname],
                    spec.location,
                    f"`{spec.transform.name}` on the method `{name}` traces `self`, but `{cls.rpartition('.')[2]}` "
                    "is not a pytree and `self` is not static: JAX raises `TypeError: Error interpreting argument "
                    "... as an abstract array` when it is called. Jit a function that takes the arrays it needs, "
                    "register the class as a pytree (`jax.tree_util.register_pytree_node_class`), or make `self` "
                    "static (`@partial(jax.jit, static_argnums=0)`) on a frozen class that hashes by value.",
                )


def _holds_mutable_state(model: Model, cls: str) -> bool:
    """A class jaxcheck can judge, and mutable. Being a pytree does not help: a
    transform traces the arguments it is given, not the `self` a bound method
    or a closure holds, so that is compiled in like any other constant."""
    traits = model.classes.traits(cls)
    return traits is not None and traits.mutable


def _never_stale(made: Made) -> bool:
    """Made anew and used once: nothing is kept to go stale (JAX401 speaks of it).
    equinox's transforms hash the function they are given, and two bound
    methods of one object are equal: a new `filter_jit(obj.method)` finds the
    old cache, and goes stale like a kept one."""
    return made.fate in THROWAWAY and not made.transform.all_static


def _changed_text(changed: list[Change]) -> str:
    change = changed[0]
    more = len(changed) - 1
    return f"`{change.text}` at {change.file}:{change.location.line}" + (
        f" (and {more} more place{'s' if more > 1 else ''})" if more else ""
    )


def _changes(model: Model, cls: str, reads: Reads, made: Made, obj: f.Ref | None) -> list[Change]:
    """The changes, after the function is made, to what it reads of the object:
    not earlier in the same function, not on another object, and for one held
    in a local for the length of a call (used more than once, or handed to a
    call), only in that call."""
    found = []
    for item in later_changes(model, cls, reads, []):
        change = item.change
        if item.holder == cls and not change.inside:
            if change.file == made.path and change.function == made.function and change.location < made.application.location:
                continue
            if obj is not None and distinct(model, change.target, obj):
                continue
        if made.fate in (REUSED, PASSED) and not (
            change.file == made.path and change.function == made.function and made.application.location < change.location
        ):
            continue
        found.append(change)
    return sorted(found, key=lambda change: (change.file, change.location))


class JittedBoundMethod(Rule):
    """`jax.jit(obj.method)` kept, where the method reads state assigned later.

    The bound method is traced once; what it read of `obj` is compiled in,
    and the cache key (the function, the argument shapes) does not change
    when `obj` does: seed 001's `CustomClass` gives 6, then 6 again after
    `c.mul = False`.
    """

    code = "JAX201"
    name = "jitted-bound-method"
    summary = "a jit of obj.method whose method reads instance state that is assigned again later"
    facts = ("baked-self",)

    def check(self, model: Model):
        for path in model.symbols.modules:
            for made in model.functions.made(path):
                if _never_stale(made):
                    continue
                for cls, method in model.functions.bound_methods(made):
                    if not _holds_mutable_state(model, cls):
                        continue
                    owner = made.application.target.ref.parent
                    changed = _changes(model, cls, model.state.method_reads(cls, method), made, owner)
                    if not changed:
                        continue
                    obj = owner.dotted if owner.is_local else owner.name.rpartition(".")[2]
                    class_name = cls.rpartition(".")[2]
                    transform = made.transform.name
                    yield self.finding(
                        path,
                        made.application.location,
                        f"`{transform}({obj}.{method.name})` traces `{class_name}.{method.name}` once and compiles in "
                        f"what it reads of `{obj}`, but `{class_name}` is mutable and {_changed_text(changed)} "
                        "changes it: the jitted function keeps returning results for the old value, since changing "
                        "the object does not change its cache key. Jit a function that takes that state as "
                        "arguments (static for Python values that steer the trace), or make the class immutable "
                        "(a frozen dataclass, or a registered pytree) and jit the method of the new object.",
                    )
                    break


class JittedClosureOverSelf(Rule):
    """A lambda or nested function reading `self.x`, jitted and kept.

    Like a bound method (JAX201), the closure is traced once and `self.x` is
    compiled in as a constant; assigning `self.x` later changes nothing the
    cache looks at.
    """

    code = "JAX203"
    name = "jitted-closure-over-self"
    summary = "a jitted lambda or nested function reads self state that is assigned again later"
    facts = ("baked-self",)

    def check(self, model: Model):
        for path in model.symbols.modules:
            for made in model.functions.made(path):
                if made.fate in THROWAWAY:
                    continue  # a closure is a new function each time: never found again
                for cls, chains in sorted(model.functions.closed_over(made).items()):
                    if not _holds_mutable_state(model, cls):
                        continue
                    reads = model.state.object_reads(cls, Reads(frozenset(chains)))
                    changed = _changes(model, cls, reads, made, None)
                    if not changed:
                        continue
                    target = made.application.target
                    what = f"the nested function `{made.nested.name}`" if made.nested is not None else (
                        "a lambda" if target.kind == f.LAMBDA else f"the nested function `{target.ref.last}`"
                    )
                    read = ", ".join(f"`self.{'.'.join(chain)}`" for chain in sorted(chains))
                    class_name = cls.rpartition(".")[2]
                    yield self.finding(
                        path,
                        made.application.location,
                        f"`{made.transform.name}` compiles {what}, which reads {read}, and the jitted function is "
                        f"kept; but `{class_name}` is mutable and {_changed_text(changed)} changes it: the compiled "
                        "function keeps the value it saw when traced and returns stale results after the change. "
                        "Pass the value as an argument of the jitted function (`jax.jit(lambda scale, x: x * scale)`, "
                        "called with `self.scale`), or make the class immutable.",
                    )
                    break
