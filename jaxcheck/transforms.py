"""The transforms that cache compiled functions, and how each marks values static."""

from __future__ import annotations

from dataclasses import dataclass

from jaxcheck import facts as f


@dataclass(frozen=True)
class Transform:
    name: str  # how messages name it: "jax.jit"
    argnums: str  # the keyword that lists static positions
    argnames: str = ""  # the keyword that lists static names, when it has one


_JIT = Transform("jax.jit", "static_argnums", "static_argnames")

TRANSFORMS: dict[str, Transform] = {
    "jax.jit": _JIT,
    "jax.api.jit": _JIT,
    "jax._src.api.jit": _JIT,  # how JAX's own modules spell it
}

PARTIAL = frozenset({"functools.partial"})


@dataclass(frozen=True)
class StaticSpec:
    """Which arguments a transform application makes static."""

    transform: Transform
    argnums: tuple[int, ...]
    argnames: tuple[str, ...]
    location: f.Location  # the decorator or the transform call


@dataclass(frozen=True)
class Application:
    """A transform applied to a function: `@jit`, `@partial(jit, ...)`, `jit(fn, ...)`."""

    spec: StaticSpec | None  # None when its static arguments are not literals
    target: f.Value | None  # the function given to the transform; None for decorators


def application(value: f.Value) -> Application | None:
    """Read a decorator or a call as a transform application, if it is one."""
    if value.kind == f.NAME and value.ref in TRANSFORMS:
        return Application(StaticSpec(TRANSFORMS[value.ref], (), (), value.location), None)
    if value.kind != f.CALL:
        return None
    if value.ref in TRANSFORMS:
        transform, keywords, args = TRANSFORMS[value.ref], value.keywords, value.args
    elif value.ref in PARTIAL and value.args and value.args[0].ref in TRANSFORMS:
        transform, keywords, args = TRANSFORMS[value.args[0].ref], value.keywords, value.args[1:]
    elif value.func is not None and value.args:
        # `jit(static_argnums=0)(fn)` and `partial(jit, static_argnums=0)(fn)`
        inner = application(value.func)
        if inner is None or inner.target is not None:
            return None
        return Application(inner.spec, value.args[0])
    else:
        return None
    spec = _static_spec(transform, keywords, value.location)
    return Application(spec, args[0] if args else None)


def _static_spec(transform: Transform, keywords, location: f.Location) -> StaticSpec | None:
    argnums: tuple[int, ...] = ()
    argnames: tuple[str, ...] = ()
    for key, given in keywords:
        if key == "**":
            return None
        if key == transform.argnums:
            numbers = _literal_tuple(given)
            if numbers is None or not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
                return None
            argnums = numbers
        elif transform.argnames and key == transform.argnames:
            names = _literal_tuple(given)
            if names is None or not all(isinstance(n, str) for n in names):
                return None
            argnames = names
    return StaticSpec(transform, argnums, argnames, location)


def _literal_tuple(value: f.Value) -> tuple | None:
    if value.kind == f.CONSTANT:
        return () if value.literal is None else (value.literal,)
    if value.kind in (f.TUPLE, f.LIST) and value.literal is not None:
        return value.literal
    return None
