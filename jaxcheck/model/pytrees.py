"""Where pytrees keep static data: the `aux_data` their flatten functions
return, and the static fields of dataclass-style pytrees.

JAX puts both in the tree's structure (the treedef), which is part of every
jit cache key: compared with `==` on each call and kept by reference in the
cache. Registrations are found in every spelling: `@register_pytree_node_class`
(and its `_with_keys` form), `register_pytree_node(cls, flatten, unflatten)`
and `register_pytree_with_keys(...)` with a named function, a method or a
lambda, and the static field specifiers of equinox, flax, `register_dataclass`,
nnx and jax_dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass

from jaxcheck import facts as f
from jaxcheck.facts import Ref
from jaxcheck.model.jax_api import (
    CALL_REGISTRATIONS,
    CLASS_REGISTRATIONS,
    JAX_DATACLASSES_STATIC,
    NNX_STATIC,
    PENZAI_DATACLASS,
    REGISTER_DATACLASS,
    TREE_STATIC,
    tree_util_name,
)
from jaxcheck.model.symbols import Symbols


@dataclass(frozen=True)
class AuxElement:
    """One thing a flatten puts in `aux_data`, as written in the flatten."""

    value: f.Value
    path: str  # the file the expression is in
    cls: str | None  # the registered project class, when known
    subject: Ref | None  # the object being flattened: `self` of `Point.tree_flatten`, `p` of a lambda
    flatten: str  # how messages name the flatten


JAX, PENZAI = "jax", "penzai"  # which registration reads a class's field metadata


@dataclass(frozen=True)
class StaticField:
    """A field a dataclass-style pytree keeps in its structure instead of its leaves."""

    cls: str
    name: str
    path: str
    location: f.Location  # its declaration, or the `self.x = nnx.static(...)` that makes it
    how: str  # the specifier, for messages: "`eqx.field(static=True)`"


def aux_elements(symbols: Symbols) -> list[AuxElement]:
    """Every element of `aux_data` returned by the registered flatten functions."""
    found: list[AuxElement] = []
    registered: list[tuple[str, str]] = []  # (class, how)
    for cls in symbols.classes.values():
        for decorator in cls.decorators:
            registration = tree_util_name(decorator.dotted, CLASS_REGISTRATIONS)
            if registration is not None:
                registered.append((cls.qualname, registration))
    # `C = register_pytree_node_class(C)`
    for _, _, call in symbols.calls.where(lambda name: tree_util_name(name, CLASS_REGISTRATIONS) is not None):
        registration = tree_util_name(call.dotted, CLASS_REGISTRATIONS)
        if call.args and call.args[0].kind == f.NAME:
            cls = symbols.lookup_class(call.args[0].ref)
            if cls is not None:
                registered.append((cls, registration))
    for cls, registration in dict.fromkeys(registered):
        for name in CLASS_REGISTRATIONS[registration]:
            method = symbols.find_method(cls, name)
            if method is not None and method.is_instance_method:
                found.extend(_of_function(symbols, method, cls))
    for path, _, call in symbols.calls.where(lambda name: tree_util_name(name, CALL_REGISTRATIONS) is not None):
        registration = tree_util_name(call.dotted, CALL_REGISTRATIONS)
        if not call.args:
            continue
        cls = symbols.lookup_class(call.args[0].ref) if call.args[0].kind == f.NAME else None
        positions, keywords = CALL_REGISTRATIONS[registration]
        given = [call.args[n] for n in positions if n < len(call.args)]
        given += [value for key, value in call.keywords if key in keywords]
        for flatten in given:
            if flatten.kind == f.LAMBDA:
                found.extend(_of_lambda(path, flatten, cls, registration))
            elif flatten.kind == f.NAME:
                function = symbols.lookup_function(flatten.ref)
                if function is not None and function.parameters:
                    found.extend(_of_function(symbols, function, cls))
    return found


def _of_function(symbols: Symbols, function: f.FunctionFacts, cls: str | None, helpers: int = 2) -> list[AuxElement]:
    """The aux elements a flatten function returns, through its locals and
    through the helpers it returns the result of (`return self._flatten()`,
    `return _flatten(self)`), `helpers` levels deep."""
    path = symbols.path_of[function.qualname]
    subject = Ref(function.parameters[0].name, function.qualname) if function.parameters else None
    shown = symbols.short_name(function.qualname)
    elements = []
    for returned in function.returns:
        helper = _helper(symbols, returned, subject, cls) if helpers else None
        if helper is not None:
            elements.extend(_of_function(symbols, helper, cls, helpers - 1))
        for pair in [returned, *_bound(symbols, returned)]:
            if pair.kind == f.TUPLE and len(pair.args) == 2:
                for value in _spread(symbols, pair.args[1]):
                    declared = _declared(symbols, value, subject, cls)
                    if declared is None:
                        elements.append(AuxElement(value, path, cls, subject, f"`{shown}`"))
                        continue
                    where, owner, names = declared
                    how = f"`{shown}` (from the names in `{owner}`)"
                    elements.extend(AuxElement(name, where, cls, subject, how) for name in names)
    return elements


def _declared(
    symbols: Symbols, value: f.Value, subject: Ref | None, cls: str | None
) -> tuple[str, str, list[f.Value]] | None:
    """For `tuple(getattr(self, n) for n in self.aux_fields)`: (file, how messages
    name the list, `self.<name>` for each name the class declares there, located
    at that name); None for any other value. The class declaring the list is at
    fault, not the base's flatten every subclass shares."""
    if value.kind == f.CALL and value.dotted in ("builtins.tuple", "builtins.list") and len(value.args) == 1:
        value = value.args[0]
    if value.kind != f.GETATTRS or cls is None or subject is None:
        return None
    owner, names = value.args
    if owner.ref != subject or names.ref is None or names.ref.base != subject or len(names.ref.attributes) != 1:
        return None
    attribute = names.ref.attributes[0]
    for declaring in symbols.mro(cls):
        for given in symbols.classes[declaring].attributes:
            if given.name != attribute:
                continue
            if given.value is None or given.value.kind not in (f.TUPLE, f.LIST):
                return None
            found = [
                f.Value(f.NAME, item.location, Ref(subject.name, subject.function, (item.literal,)))
                for item in given.value.args
                if item.kind == f.CONSTANT and isinstance(item.literal, str)
            ]
            return symbols.path_of[declaring], f"{symbols.short_name(declaring)}.{attribute}", found
    return None


def _helper(symbols: Symbols, returned: f.Value, subject: Ref | None, cls: str | None) -> f.FunctionFacts | None:
    """The function a flatten hands the object to and returns the result of."""
    if returned.kind != f.CALL or subject is None or returned.ref is None:
        return None
    if cls is not None and returned.ref.base == subject and len(returned.ref.attributes) == 1:
        method = symbols.find_method(cls, returned.ref.last)
        return method if method is not None and method.is_instance_method else None
    if returned.args and returned.args[0].kind == f.NAME and returned.args[0].ref == subject:
        function = symbols.lookup_function(returned.ref)
        return function if function is not None and function.parameters else None
    return None


def _of_lambda(path: str, flatten: f.Value, cls: str | None, registration: str) -> list[AuxElement]:
    if not flatten.args or not flatten.literal:
        return []
    body, subject = flatten.args[0], Ref(flatten.literal[0], f.LAMBDA_SCOPE)
    if body.kind != f.TUPLE or len(body.args) != 2:
        return []
    aux = body.args[1]
    values = aux.args if aux.kind == f.TUPLE else (aux,)
    shown = f"the lambda given to `{registration}` (line {flatten.location.line})"
    return [AuxElement(value, path, cls, subject, shown) for value in values]


def _bound(symbols: Symbols, value: f.Value) -> list[f.Value]:
    """What a flatten's local name was assigned (`aux = (self.n, self.mask)`)."""
    if value.kind != f.NAME or value.ref is None or not value.ref.is_local or value.ref.attributes:
        return []
    return [binding.value for binding in symbols.bindings.get(value.ref, ())]


def _spread(symbols: Symbols, aux: f.Value) -> list[f.Value]:
    """The elements of `aux_data`: a tuple's items, each local name (the
    tuple's or an item's) replaced by what it was assigned."""
    found = []
    for value in _through_locals(symbols, aux):
        if value.kind == f.TUPLE:
            for item in value.args:
                found.extend(_through_locals(symbols, item))
        else:
            found.append(value)
    return found


def _through_locals(symbols: Symbols, value: f.Value) -> list[f.Value]:
    return _bound(symbols, value) or [value]


def static_fields(symbols: Symbols) -> list[StaticField]:
    """Every static field of the project's classes, each with the specifier that makes it static."""
    meta: dict[str, set[str]] = {}  # class -> names given as `register_dataclass(meta_fields=...)`
    for _, _, call in symbols.calls.where(REGISTER_DATACLASS.__contains__):
        if call.args and call.args[0].kind == f.NAME:
            cls = symbols.lookup_class(call.args[0].ref)
            if cls is not None:
                given = call.keyword("meta_fields") or (call.args[2] if len(call.args) > 2 else None)
                meta.setdefault(cls, set()).update(_names(given))
    found = []
    for cls in symbols.classes.values():
        path = symbols.path_of[cls.qualname]
        names = set(meta.get(cls.qualname, ()))
        registered = JAX if cls.qualname in meta else ""
        for decorator in cls.decorators:
            # `@register_dataclass`, `@partial(register_dataclass, data_fields=..., meta_fields=...)`
            partial = decorator.dotted == "functools.partial" and decorator.args and decorator.args[0].dotted in REGISTER_DATACLASS
            if decorator.dotted in REGISTER_DATACLASS or partial:
                registered = JAX
                names.update(_names(decorator.keyword("meta_fields")))
            elif decorator.dotted in PENZAI_DATACLASS:
                registered = PENZAI
        for attribute in cls.attributes:
            how = _specifier(symbols, attribute.value, registered)
            if how is None and any(ref.dotted == JAX_DATACLASSES_STATIC for ref in attribute.annotation):
                how = "`jax_dataclasses.Static[...]`"
            if how is None and attribute.name in names:
                how = "`register_dataclass(meta_fields=...)`"
            if how is not None:
                found.append(StaticField(cls.qualname, attribute.name, path, attribute.location, how))
        for method in cls.methods:
            function = symbols.functions[method]
            if not function.is_instance_method:
                continue
            for write, write_path in symbols.writes.get(Ref(function.self_name, method), ()):
                value = write.value
                if value is not None and value.kind == f.CALL and value.dotted == NNX_STATIC:
                    found.append(StaticField(cls.qualname, write.attribute, write_path, write.location, "`nnx.static(...)`"))
    return found


def _names(value: f.Value | None) -> tuple[str, ...]:
    if value is None or not isinstance(value.literal, tuple):
        return ()
    return tuple(name for name in value.literal if isinstance(name, str))


def _specifier(symbols: Symbols, value: f.Value | None, registered: str, wrapped: bool = False) -> str | None:
    """How a class-body field is declared static by the value it is given, for
    messages; None when it is not. Field metadata means something only to the
    registration that reads it: `registered` says which the class was given to
    (`JAX`: `register_dataclass` reads `{"static": True}`; `PENZAI`:
    `pz.pytree_dataclass` reads `{"pytree_node": False}`), if any. A
    project's own wrapper (`def static_field(): return
    dataclasses.field(metadata={"static": True})`) counts when every return is one."""
    if value is None or value.kind != f.CALL:
        return None
    known = _known_specifier(value, registered)
    if known is not None or wrapped:
        return known
    function = symbols.lookup_function(value.ref)
    if function is not None and function.returns:
        inner = {_specifier(symbols, returned, registered, True) for returned in function.returns}
        if len(inner) == 1 and None not in inner:
            return f"`{function.name}()`, which returns {inner.pop()}"
    return None


def _known_specifier(value: f.Value, registered: str) -> str | None:
    """The specifiers of the libraries, by name (also when the library itself is analysed)."""
    name = value.dotted
    if name in ("equinox.field", "equinox._module.field") and _is_true(value.keyword("static")):
        return "`eqx.field(static=True)`"
    if name in ("equinox.static_field", "equinox._module.static_field"):
        return "`eqx.static_field()`"
    if name == "flax.struct.field" and _is_false(value.keyword("pytree_node")):
        return "`struct.field(pytree_node=False)`"
    if name == NNX_STATIC:
        return "`nnx.static(...)`"
    if name == "jax_dataclasses.static_field":
        return "`jax_dataclasses.static_field()`"
    if name in TREE_STATIC and registered == JAX:
        return "`jax.tree.static()`"
    if name == "dataclasses.field" and registered:
        metadata = value.keyword("metadata")
        if metadata is None:
            return None
        if registered == JAX and _is_true(metadata.keyword("static")):
            return "`field(metadata={'static': True})`"
        if registered == PENZAI and _is_false(metadata.keyword("pytree_node")):
            return "`field(metadata={'pytree_node': False})`"
    return None


def _is_true(value: f.Value | None) -> bool:
    return value is not None and value.kind == f.CONSTANT and value.literal is True


def _is_false(value: f.Value | None) -> bool:
    return value is not None and value.kind == f.CONSTANT and value.literal is False
