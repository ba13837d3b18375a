"""The user pytree nodes in a call's arguments, their `aux_data`, and what the arguments hold."""

from __future__ import annotations

import types

import numpy as np

import jax

import jaxcheck.watch.places as places
from jaxcheck.watch.snapshot import is_plain_value, take

BUILTIN_NODES = (tuple, list, dict, type(None))


def aux_entries(dynamic, flatten_functions) -> list:
    """(path, pytree class, the node, aux_data, snapshot) of each user pytree node in the arguments."""
    entries: list = []
    _aux_walk(dynamic, "", entries, 0)
    return entries


def _aux_walk(value, path: str, entries: list, depth: int) -> None:
    if depth > 8 or len(entries) > 200 or isinstance(value, (jax.Array, np.ndarray)) or value is None or is_plain_value(value):
        return
    try:
        children, treedef = jax.tree_util.tree_flatten_with_path(value, is_leaf=lambda x: x is not value)
    except Exception:  # noqa: BLE001 - a flatten of the user's that fails is JAX's to report
        return
    data = treedef.node_data()
    if data is None:
        return
    node, aux = data
    if node not in BUILTIN_NODES and aux is not None and not getattr(node, "_fields", None):
        entries.append((path, node, value, aux, None if is_plain_value(aux) else take(aux)))
    for key_path, child in children:
        _aux_walk(child, path + jax.tree_util.keystr(key_path), entries, depth + 1)


def aux_parts(aux, reachable: set, depth: int = 0):
    """The values in `aux_data` whose state can change and that the arguments hold (an `aux_data` built
    anew by each flatten is not what changes): the outermost such objects."""
    if is_plain_value(aux) or isinstance(aux, (type, types.FunctionType, jax.Array)) or depth > 3:
        return
    if id(aux) in reachable:
        yield aux
        return
    if isinstance(aux, (tuple, list)):
        for item in aux:
            yield from aux_parts(item, reachable, depth + 1)
    elif isinstance(aux, dict):
        for item in aux.values():
            yield from aux_parts(item, reachable, depth + 1)
    else:
        attributes = getattr(aux, "__dict__", None)
        if isinstance(attributes, dict):
            for item in attributes.values():
                yield from aux_parts(item, reachable, depth + 1)


def flat(value, depth: int = 0):
    if depth > 3:
        return
    yield value
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from flat(item, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            yield from flat(item, depth + 1)
    elif not is_plain_value(value) and not isinstance(value, (np.ndarray, jax.Array, type, types.FunctionType, types.MethodType)):
        attributes = getattr(value, "__dict__", None)
        if isinstance(attributes, dict):
            for item in attributes.values():
                yield from flat(item, depth + 1)


def field_holding(instance, value) -> str | None:
    attributes = getattr(instance, "__dict__", None) or {}
    for name, held in attributes.items():
        if held is value:
            return name
    for name, held in attributes.items():
        if any(item is value for item in flat(held)):
            return name
    return None


def flatten_site(node, flatten_functions):
    function = flatten_functions.get(node) or vars(node).get("tree_flatten")
    if function is not None:
        site = places.function_site(function)
        if site is not None:
            return site
    return places.class_site(node)


def reachable(value, limit: int = 4000) -> set[int]:
    """The ids of the objects below `value` (containers and object attributes), to tell whether a changed
    object takes part in a call."""
    seen: set[int] = set()
    pending = [(value, 0)]
    while pending and len(seen) < limit:
        current, depth = pending.pop()
        if id(current) in seen or depth > 6 or is_plain_value(current):
            continue
        seen.add(id(current))
        if isinstance(current, (tuple, list, set, frozenset)):
            pending.extend((item, depth + 1) for item in list(current)[:64])
        elif isinstance(current, dict):
            pending.extend((item, depth + 1) for item in list(current.values())[:64])
        elif isinstance(current, (jax.Array, np.ndarray)):
            continue
        else:
            attributes = getattr(current, "__dict__", None)
            if isinstance(attributes, dict):
                pending.extend((item, depth + 1) for item in list(attributes.values())[:64])
    return seen
