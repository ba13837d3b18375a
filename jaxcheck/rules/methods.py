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
from jaxcheck.model.project import Analysis
from jaxcheck.model.state import attribute_reads, changes, state_reads
from jaxcheck.model.functions import REUSED, THROWAWAY, Made
from jaxcheck.rules.base import Rule, short_name
from jaxcheck.model.transforms import application

# The transforms that trace every argument that is not static (nnx.jit and
# equinox's filter_jit accept other objects, pmap is not put on methods).
_TRACING = frozenset({"jax.jit", "pjit"})


class JitMethodSelfNotStatic(Rule):
    """`@jax.jit` on a method of a plain class, with `self` not static.

    JAX tries to read `self` as an array and raises `TypeError: Error
    interpreting argument ... as an abstract array` on the first call.
    """

    code = "JAX202"
    name = "jit-method-self-not-static"
    summary = "a jit decorator on a method of a class that is not a pytree, with self not static"
    facts = ("self-not-static",)

    def check(self, module: f.ModuleFacts, analysis: Analysis):
        index = analysis.index
        table = analysis.options.table
        for function in module.functions:
            if not function.is_instance_method:
                continue
            cls = function.class_qualname
            # A class jaxcheck cannot judge may be a pytree through a base it cannot see.
            if index.is_pytree(cls) or analysis.safety.traits(cls) is None:
                continue
            for decorator in function.decorators:
                applied = application(decorator, table)
                if applied is None or applied.spec is None or applied.target is not None:
                    continue
                spec = applied.spec
                if spec.transform.name not in _TRACING:
                    continue
                first = function.parameters[0].name
                count = len(function.positional)
                if first in spec.argnames or any(n == 0 or n + count == 0 for n in spec.argnums):
                    continue
                name = short_name(function.qualname, analysis)
                yield self.finding(
                    module.path,
                    spec.location,
                    f"`{spec.transform.name}` on the method `{name}` traces `self`, but `{cls.rpartition('.')[2]}` "
                    "is not a pytree and `self` is not static: JAX raises `TypeError: Error interpreting argument "
                    "... as an abstract array` when it is called. Jit a function that takes the arrays it needs, "
                    "register the class as a pytree (`jax.tree_util.register_pytree_node_class`), or make `self` "
                    "static (`@partial(jax.jit, static_argnums=0)`) on a frozen class that hashes by value.",
                )


def _holds_mutable_state(analysis: Analysis, cls: str) -> bool:
    """A class jaxcheck can judge, and mutable. Being a pytree does not help: a
    transform traces the arguments it is given, not the `self` a bound method
    or a closure holds, so that is compiled in like any other constant."""
    traits = analysis.safety.traits(cls)
    return traits is not None and traits.mutable


def _never_stale(made: Made) -> bool:
    """Made anew and used once: nothing is kept to go stale (JAX401 speaks of it).
    equinox's transforms hash the function they are given, and two bound
    methods of one object are equal: a new `filter_jit(obj.method)` finds the
    old cache, and goes stale like a kept one."""
    return made.fate in THROWAWAY and not made.transform.all_static


def _changed_text(changed: list[tuple[f.AttributeWrite, str]]) -> str:
    write, path = changed[0]
    more = len(changed) - 1
    return f"`{write.attribute}` is assigned again at {path}:{write.location.line}" + (
        f" (and {more} more place{'s' if more > 1 else ''})" if more else ""
    )


def _changes(analysis: Analysis, cls: str, reads: set[str], module: f.ModuleFacts, made: Made):
    """The assignments that can make the function `made` stale. One held in
    a local for the length of a call (used more than once) goes stale only by
    an assignment in that call after it is made."""
    changed = changes(analysis, cls, reads, (module.path, made.function, made.application.location))
    if made.fate == REUSED:
        changed = [
            (write, path)
            for write, path in changed
            if path == module.path and write.function == made.function and made.application.location < write.location
        ]
    return changed


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

    def check(self, module: f.ModuleFacts, analysis: Analysis):
        for made in analysis.made(module.path):
            if _never_stale(made):
                continue
            for cls, method in analysis.bound_methods(made):
                if not _holds_mutable_state(analysis, cls):
                    continue
                changed = _changes(analysis, cls, state_reads(analysis, cls, method), module, made)
                if not changed:
                    continue
                owner = made.application.target.ref.rpartition(".")[0]
                obj = owner.partition(":")[2] or owner.rpartition(".")[2]
                class_name = cls.rpartition(".")[2]
                transform = made.transform.name
                yield self.finding(
                    module.path,
                    made.application.location,
                    f"`{transform}({obj}.{method.name})` traces `{class_name}.{method.name}` once and compiles in "
                    f"what it reads of `{obj}`, but `{class_name}` is mutable and {_changed_text(changed)}: "
                    "the jitted function keeps returning results for the old value, since changing the object "
                    "does not change its cache key. Jit a function that takes that state as arguments (static "
                    "for Python values that steer the trace), or make the class immutable (a frozen dataclass, "
                    "or a registered pytree) and jit the method of the new object.",
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

    def check(self, module: f.ModuleFacts, analysis: Analysis):
        for made in analysis.made(module.path):
            if made.fate in THROWAWAY:
                continue  # a closure is a new function each time: never found again
            for cls, attributes in sorted(analysis.closed_over(made).items()):
                if not _holds_mutable_state(analysis, cls):
                    continue
                changed = _changes(analysis, cls, attribute_reads(analysis, cls, attributes), module, made)
                if not changed:
                    continue
                what = f"the nested function `{made.nested.name}`" if made.nested is not None else (
                    "a lambda" if made.application.target.kind == f.LAMBDA else
                    f"the nested function `{made.application.target.ref.rpartition('.')[2]}`"
                )
                read = ", ".join(f"`self.{name}`" for name in sorted(attributes))
                class_name = cls.rpartition(".")[2]
                yield self.finding(
                    module.path,
                    made.application.location,
                    f"`{made.transform.name}` compiles {what}, which reads {read}, and the jitted function is "
                    f"kept; but `{class_name}` is mutable and {_changed_text(changed)}: the compiled function "
                    "keeps the value it saw when traced and returns stale results after the change. Pass the "
                    "value as an argument of the jitted function (`jax.jit(lambda scale, x: x * scale)`, called "
                    "with `self.scale`), or make the class immutable.",
                )
                break
