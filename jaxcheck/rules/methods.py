"""JAX2xx: transforms applied to methods (SPEC 3).

A jitted function sees its arguments as arrays or pytrees of arrays, or as
static values. `self` of a plain class is neither unless it is made static,
so `@jax.jit` on such a method fails the moment it is called.
"""

from __future__ import annotations

from jaxcheck import facts as f
from jaxcheck.analysis import Analysis
from jaxcheck.rules.base import Rule, short_name
from jaxcheck.transforms import application

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
