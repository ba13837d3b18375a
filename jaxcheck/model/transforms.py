"""Transform applications: which function a caching transform is applied to, and which arguments it makes static."""

from __future__ import annotations

from dataclasses import dataclass, replace

from jaxcheck import facts as f
from jaxcheck.model.jax_api import PARTIAL, TRANSFORMS, Transform
from jaxcheck.model.jax_versions import NEWEST, Target


@dataclass(frozen=True)
class Options:
    """What the configuration adds to the analysis (`[tool.jaxcheck]`)."""

    transforms: tuple[tuple[str, Transform], ...] = ()  # extra-transforms
    static_bases: tuple[str, ...] = ()  # sorted, so that the repr is stable (the cache keys on it)
    singletons: tuple[str, ...] = ()
    target: Target = NEWEST  # the JAX releases the project runs on: consequences depend on them

    @property
    def table(self) -> dict[str, Transform]:
        return {**TRANSFORMS, **dict(self.transforms)}

    @property
    def keywords(self) -> tuple[str, ...]:
        """The static keywords and names of the configured transforms, for the pre-filter."""
        found = {kw for _, transform in self.transforms for kw in (transform.argnums, transform.argnames) if kw}
        found.update(name.rpartition(".")[2] for name, _ in self.transforms)
        return tuple(sorted(found))


@dataclass(frozen=True)
class StaticSpec:
    """Which arguments a transform application makes static."""

    transform: Transform
    argnums: tuple[int, ...]
    argnames: tuple[str, ...]
    location: f.Location  # the decorator or the transform call
    bound: int = 0  # leading parameters the transform binds (`nnx.jit_partial(step, model)`): calls pass the rest


@dataclass(frozen=True)
class Application:
    """A transform applied to a function: `@jit`, `@partial(jit, ...)`, `jit(fn, ...)`."""

    transform: Transform
    spec: StaticSpec | None  # None when its static arguments are not literals
    target: f.Value | None  # the function given to the transform; None for decorators
    location: f.Location  # the decorator or the call that applies it
    # The transform `target` was given through (`jax.vmap` in `jit(vmap(fn))`): a new function each time.
    wrapped_by: str = ""


def application(value: f.Value, table: dict[str, Transform] = TRANSFORMS) -> Application | None:
    """Read a decorator or a call as a transform application, if it is one."""
    if value.kind == f.NAME and value.dotted in table:
        transform = table[value.dotted]
        return Application(transform, StaticSpec(transform, (), (), value.location), None, value.location)
    if value.kind != f.CALL:
        return None
    if value.dotted in table:
        transform, args = table[value.dotted], value.args
    elif value.dotted == PARTIAL and value.args and value.args[0].dotted in table:
        transform, args = table[value.args[0].dotted], value.args[1:]
    elif value.func is not None and value.args:
        # `jit(static_argnums=0)(fn)` and `partial(jit, static_argnums=0)(fn)`
        inner = application(value.func, table)
        if inner is None or inner.target is not None:
            return None
        return Application(inner.transform, inner.spec, value.args[0], value.location)
    else:
        return None
    spec = _static_spec(transform, value)
    if spec is not None and transform.binds_leading and args:
        if any(arg.kind == f.OTHER and arg.literal == "*" for arg in args):
            spec = None  # `*args`: how many parameters it binds is not known
        else:
            spec = replace(spec, bound=len(args) - 1)
    target = unwrapped(args[0]) if args else None
    wrapped_by = args[0].dotted if args and target is not args[0] else ""
    return Application(transform, spec, target, value.location, wrapped_by)


def unwrapped(target: f.Value) -> f.Value:
    """The function inside `jax.vmap(fn)` and its kin: what a jit of it compiles and keeps."""
    while target.kind == f.CALL and target.dotted in f.WRAPPERS and target.args:
        target = target.args[0]
    return target


def _static_spec(transform: Transform, call: f.Value) -> StaticSpec | None:
    """The literal static arguments of a call; None when they are not literals."""
    if transform.all_static:
        return StaticSpec(transform, (), (), call.location)
    if call.keyword("**") is not None:
        return None
    argnums: tuple = ()
    given = call.keyword(transform.argnums)
    if given is not None:
        argnums = _literal_tuple(given)
        if argnums is None or not all(isinstance(n, int) and not isinstance(n, bool) for n in argnums):
            return None
    argnames: tuple = ()
    given = call.keyword(transform.argnames) if transform.argnames else None
    if given is not None:
        argnames = _literal_tuple(given)
        if argnames is None or not all(isinstance(n, str) for n in argnames):
            return None
    return StaticSpec(transform, argnums, argnames, call.location)


def _literal_tuple(value: f.Value) -> tuple | None:
    if value.kind == f.CONSTANT:
        return () if value.literal is None else (value.literal,)
    if value.kind in (f.TUPLE, f.LIST) and value.literal is not None:
        return value.literal
    return None
