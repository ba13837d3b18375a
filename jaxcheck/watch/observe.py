"""What the watcher saw, turned into findings.

Each transformed function keeps the static values it was traced with (each
with a snapshot of its state), the `aux_data` of the pytrees it was traced
on, and what its function bakes in (the object of a bound method, the objects
and values a closure or the module holds). A call that traces is explained
against the earlier keys (an equal copy that hashes by identity: JAX102; a
new value at one call site, again and again: JAX402; an `aux_data` that never
compares equal: JAX304); a call that does not trace, or traces again, after
a key's state changed is a stale result or a recompilation (JAX101 ...).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import weakref
from typing import Callable

import numpy as np

import jax

import jaxcheck.watch.places as places
from jaxcheck.findings import Finding, Related, place_named
from jaxcheck.watch.held import code_of, held_by, only_read, quick, read_targets, trace_recording, was_read
from jaxcheck.watch.keys import MISSING, FunctionState, Key, resolve, worth_watching
from jaxcheck.watch.places import Site
from jaxcheck.watch.pytrees import aux_entries, aux_parts, field_holding, flat, flatten_site, reachable
from jaxcheck.watch.snapshot import Snapshot, describe, is_plain_value, shallow_state, take

_KEYS_KEPT = 16  # earlier static values kept per argument
_VERIFIED_KEPT = 64  # objects found equal to a key and unchangeable, kept so that their ids stay theirs
_ROOTS_KEPT = 32  # objects watched for changes per function
_VALUES_BEFORE_REPORT = 3  # distinct values of a static argument at one call site before JAX402
_NON_HASHABLE = "Non-hashable static arguments are not supported"
_STALE = "the call returned the result compiled for the old state (a stale result)"
_RECOMPILED = "JAX traced and compiled it again, and keeps the old entry keyed on the changed object"


class Observer:
    """Sees each call of the functions transformed during a watch, and reports what goes wrong."""

    def __init__(self, on_finding: Callable[[Finding], None] | None = None) -> None:
        self.active = False
        self.case = 0  # distinct static values are counted per case: a test of a suite, or the whole run
        self.findings: list[Finding] = []
        self._reported: set = set()
        self.on_finding = on_finding
        self.flatten_functions: dict = {}
        # JAX401: per jit site and function code, the transformed functions made there (weakly) and their functions.
        self._made_at: dict = {}
        # What functions hold (the object of a bound method, a closure's objects, globals), per place and object:
        # a function jitted anew per call shares them with the last one.
        self._baked: dict = {}
        self.errors: list[str] = []
        places.forget()
        # Where watched objects' attributes were last set: (id, attribute) -> Site; the objects; the classes hooked.
        self._writes: dict = {}
        self._written: dict = {}
        self._hooked: dict = {}

    def close(self) -> None:
        """Put back the `__setattr__` of the classes whose writes were watched."""
        for cls, own in self._hooked.items():
            try:
                if own is None:
                    del cls.__setattr__
                else:
                    cls.__setattr__ = own
            except (TypeError, AttributeError):
                pass
        self._hooked.clear()
        self._written.clear()

    def _watch_writes(self, key: Key) -> None:
        """Note where the mutable objects of a new key are changed from now on, to name the line."""
        if key.snapshot is None:
            return
        for path, holder in key.snapshot.holders.items():
            if holder[0] != "object" or holder[2] or not places.user_class(holder[1]):
                continue
            obj = resolve(key.obj, path)
            if obj is MISSING:
                continue
            self._written[id(obj)] = obj
            _bound(self._written)
            self._hook(holder[1])

    def _hook(self, cls) -> None:
        if cls in self._hooked:
            return
        own = cls.__dict__.get("__setattr__")
        base = cls.__setattr__
        written, writes = self._written, self._writes

        def __setattr__(obj, name, value, _base=base):
            if written.get(id(obj)) is obj:
                writes[(id(obj), name)] = places.caller(2)
            _base(obj, name, value)

        try:
            cls.__setattr__ = __setattr__
        except (TypeError, AttributeError):
            return
        self._hooked[cls] = own

    def _written_at(self, key: Key, path: tuple) -> Site | None:
        """Where the attribute that changed at `path` below the key was last set, when it was watched."""
        if not path or not path[-1].startswith("."):
            return None
        holder = resolve(key.obj, path[:-1])
        if holder is MISSING:
            return None
        return self._writes.get((id(holder), path[-1][1:]))

    # -- bookkeeping --------------------------------------------------------

    def new_function(self, watched, transform, fun, traced, spec, site) -> FunctionState:
        state = FunctionState(transform, fun, traced, spec, site)
        state.watched = weakref.ref(watched)
        try:
            baked = []
            for key in held_by(fun, site):
                known = self._baked.get((site, key.origin, key.name, id(key.obj)))
                if known is not None and known.obj is key.obj:
                    key = known
                else:
                    self._baked[(site, key.origin, key.name, id(key.obj))] = key
                    _bound(self._baked)
                baked.append(key)
            state.baked = baked
            if spec.any or any(key.origin in ("self", "closure") for key in baked):
                # weakly: the function JAX keys its cache on must die with the transformed function, as unwatched
                traced.around = functools.partial(trace_recording, weakref.ref(state))
        except Exception as error:  # noqa: BLE001 - the watcher never breaks the program
            self.failed_self(error)
        return state

    def failed_self(self, error: BaseException) -> None:
        from jaxcheck.failures import described

        self.errors.append(described(error))

    def report(self, finding: Finding, key) -> None:
        if key in self._reported:
            return
        self._reported.add(key)
        self.findings.append(finding)
        if self.on_finding is not None:
            self.on_finding(finding)

    # -- a call -------------------------------------------------------------

    def call(self, state: FunctionState, call, args: tuple, kwargs: dict, frame):
        spec = state.spec
        statics = spec.statics(args, kwargs) if spec.any else ()
        state.current = statics
        try:
            pending = self._changed_roots(state, args, kwargs) if (state.roots or state.baked) else ()
        except Exception as error:  # noqa: BLE001 - the watcher never breaks the program
            self.failed_self(error)
            pending = ()
        before = state.traced.count
        try:
            result = call(*args, **kwargs)
        except Exception as error:
            state.current = ()
            try:
                self._failed(state, error, args, kwargs, spec.labelled(args, kwargs), places.of_frame(frame))
            except Exception as own:  # noqa: BLE001
                self.failed_self(own)
            raise
        state.current = ()
        traced = state.traced.count != before
        if not (traced or pending) and _nothing_new(state, statics):
            return result
        try:
            here = places.of_frame(frame)
            if spec.filtered:
                statics = spec.labelled(args, kwargs)
            for key, snapshot, changes in pending:
                self._changed(state, key, snapshot, changes, traced, here)
                if snapshot is not None:
                    key.snapshot = snapshot
                    key.quick = quick(key)
            self._statics(state, statics, traced, here)
            if traced:
                self._traced(state, args, kwargs, here)
        except Exception as error:  # noqa: BLE001
            self.failed_self(error)
        return result

    def _changed_roots(self, state, args, kwargs) -> list:
        changed = []
        for key in (*state.roots, *state.baked):
            if key.namespace is not None:
                now = key.namespace.get(key.name, key.obj)
                if now is not key.obj:
                    changed.append((key, None, ("rebound", now)))
                    key.obj = now
                    continue
            if key.snapshot is None:
                continue
            if key.quick is not None:
                names, values = key.quick
                attributes = key.obj.__dict__
                if tuple([attributes.get(name, MISSING) for name in names]) == values:
                    continue
            snapshot = take(key.obj, only_read(key))
            changes = key.snapshot.changes(snapshot)
            if changes and key.reads is not None:
                changes = [path for path in changes if path and path[0][1:] in key.reads]
            if changes:
                changed.append((key, snapshot, changes))
        if not changed:
            return changed
        held = None
        involved = []
        for item in changed:
            key = item[0]
            if key.origin == "aux":
                if held is None:
                    held = reachable((args, kwargs))
                if id(key.obj) not in held:
                    continue
            involved.append(item)
        return involved

    # -- static arguments ---------------------------------------------------

    def _statics(self, state: FunctionState, statics, traced: bool, here: Site) -> None:
        for label, value in statics:
            plain = is_plain_value(value)
            earlier = state.keys.setdefault(label, [])
            if id(value) in state.fixed_ids:
                continue
            shallow = None if plain else shallow_state(value)
            if shallow is not None and not traced and shallow in state.shallow:
                continue  # a new object, frozen, of plain fields, equal in state to a key: nothing to see
            same = next((key for key in earlier if key.obj is value), None)
            if same is not None and same.fixed:
                continue
            snapshot = None if plain else take(value)
            if same is not None:
                if same.snapshot is not None and snapshot is not None:
                    changes = same.snapshot.changes(snapshot)
                    if changes and not traced:  # a stale result only where the trace read what changed
                        changes = [path for path in changes if was_read(same, path)]
                    if changes:
                        self._changed(state, same, snapshot, changes, traced, here)
                        same.snapshot = snapshot
                continue
            if not traced:
                if not plain:
                    self._equal_but_different(state, label, value, snapshot, earlier, here)
                continue
            twin = None
            if not plain:
                twin = next((key for key in earlier if key.snapshot is not None and type(key.obj) is type(value)
                             and key.snapshot.tokens == snapshot.tokens), None)
            if twin is not None:
                self._unequal_twin(state, label, twin, value, here)
            else:
                self._new_value(state, label, value, snapshot, here)
            key = Key(value, snapshot, label, "leaf" if state.spec.filtered else "static", here)
            key.fixed = plain or not worth_watching(snapshot)
            if not key.fixed:
                self._watch_writes(key)
            if not plain:
                key.read_map = {number: state.reads_by_id.pop(number) for number in read_targets(value) if number in state.reads_by_id}
            earlier.append(key)
            if key.fixed and not plain:
                state.fixed_ids.add(id(value))
            if shallow is not None:
                state.shallow.add(shallow)
            for dropped in earlier[:-_KEYS_KEPT]:
                state.fixed_ids.discard(id(dropped.obj))
            del earlier[:-_KEYS_KEPT]

    def _new_value(self, state, label, value, snapshot, here) -> None:
        """A compilation for a value not seen before: the Nth at one call site is JAX402."""
        token = (type(value), value) if snapshot is None else (type(value), tuple(sorted(snapshot.tokens.items(), key=repr)))
        try:
            hash(token)
        except TypeError:
            token = (type(value), repr(token))
        values = state.values_at.setdefault((label, here, self.case), set())
        values.add(token)
        if len(values) == _VALUES_BEFORE_REPORT:
            self._varies(
                state, label, here, f"took {len(values)} distinct values at this call (the last {_value_text(value)})",
                "once per value", f"Pass `{label}` as a traced argument (an array), or keep the set of values it takes small and fixed",
            )

    def _varies(self, state, label, here, what: str, how_often: str, fix: str) -> None:
        self._finding(
            "JAX402", here, (id(state), label, here),
            f"static argument `{label}` of `{state.name}` {what}: `{state.short_transform}` traces and compiles {how_often}",
            fix, related=_made(state),
        )

    def _unequal_twin(self, state, label, twin: Key, value, here) -> None:
        """A compilation for a value whose state equals an earlier key's: JAX102, JAX105 or a fresh function (JAX402)."""
        culprit = _identity_culprit(twin.obj, value)
        if culprit is None:
            return
        kind, holder, field = culprit
        if kind == "identity":
            cls = type(holder)
            site = _hash_site(cls) or here
            self._finding(
                "JAX102", site, ("JAX102", cls),
                f"a new `{cls.__name__}` equal in state to an earlier one was passed as static `{label}` of "
                f"`{state.name}` at {_place(here)}: `{cls.__name__}` hashes and compares by identity, so each new, "
                f"equal instance traces and compiles again",
                f"Make `{cls.__name__}` hash and compare by value (`@dataclass(frozen=True)`), or build it once and reuse it",
                related=(Related(here.path, here.line, here.column, "a fresh equal copy is passed here"),),
            )
        elif kind == "method" and field is None:
            cls = type(holder.__self__)
            self._finding(
                "JAX102", here, ("JAX102-method", here),
                f"bound method `{cls.__name__}.{holder.__func__.__name__}` of a new `{cls.__name__}` was passed as "
                f"static `{label}` of `{state.name}`: a bound method hashes by the identity of its object, so each "
                f"new owner traces and compiles again",
                "Pass a module-level function, or the object itself (immutable, hashing by value) and call the method inside",
            )
        elif field is not None and kind in ("method", "function", "partial"):
            owner = type(field[0])
            site = places.field_site(owner, field[1]) or here
            what = {"method": "a bound method", "function": "a function made per instance", "partial": "a `functools.partial`"}[kind]
            self._finding(
                "JAX105", site, ("JAX105", owner, field[1]),
                f"`{owner.__name__}.{field[1]}` holds {what}, new for each `{owner.__name__}`: static `{label}` of "
                f"`{state.name}` at {_place(here)} never equals the earlier key, so every call traces and compiles again",
                f"Store a module-level function in `{field[1]}`, or the object whose method it is (hashing by value)",
                related=(Related(here.path, here.line, here.column, "passed as a static argument here"),),
            )
        else:
            self._varies(
                state, label, here, f"is a new {_kind_text(kind, holder)} on each call, equal in code but not `==` to the last",
                "again for each", f"Build `{label}` once outside the loop, or pass a module-level function",
            )

    def _equal_but_different(self, state, label, value, snapshot, earlier, here) -> None:
        """No trace for a new object: it compared equal to an earlier key. If their state differs, the
        cache served the other's compilation (JAX103), or a bound method's object changed (JAX105)."""
        for key in earlier:
            if key.snapshot is None or type(key.obj) is not type(value):
                continue
            try:
                if not (key.obj == value and hash(key.obj) == hash(value)):
                    continue
            except Exception:  # noqa: BLE001
                continue
            changes = key.snapshot.changes(snapshot)
            if not changes:
                if key.fixed and not worth_watching(snapshot):  # checked once: it cannot change
                    state.verified[id(value)] = value
                    state.fixed_ids.add(id(value))
                    if len(state.verified) > _VERIFIED_KEPT:
                        dropped = next(iter(state.verified))
                        del state.verified[dropped]
                        state.fixed_ids.discard(dropped)
                return
            path = changes[0]
            shared = resolve(key.obj, path[:-1])
            if shared is not MISSING and shared is resolve(value, path[:-1]):
                # Not two different keys: an object both hold changed after the first became a key.
                self._changed(state, key, snapshot, changes, False, here)
                return
            holder = _owner_of(key.snapshot, snapshot, path)
            cls = holder[1] if holder else type(value)
            site = _hash_site(cls) or places.class_site(cls) or here
            self._finding(
                "JAX103", site, ("JAX103", cls),
                f"static `{label}` of `{state.name}` at {_place(here)} compares equal to the key of {_place(key.made)} "
                f"but differs in {_change_text(key.snapshot, snapshot, path)}: `{cls.__name__}`'s `__hash__`/`__eq__` "
                f"leave that out, so {_STALE}",
                f"Include every field, and the type when it has subclasses, in `{cls.__name__}.__hash__` and `__eq__`",
                related=_related(key.made, here),
            )
            return

    # -- a change -----------------------------------------------------------

    def _changed(self, state: FunctionState, key: Key, snapshot, changes, traced: bool, here: Site) -> None:
        consequence = _RECOMPILED if traced else _STALE
        if traced and key.origin in ("self", "closure", "global"):
            return  # traced again: the new trace read the new state
        if changes and changes[0] == "rebound":
            now = changes[1]
            self._finding(
                "JAX204", state.site or here, ("JAX204", state.name, key.label),
                f"`{state.name}` read global `{key.label}` when it was traced; `{key.label}` was then rebound to "
                f"{_value_text(now)}: {_STALE if not traced else 'JAX traced it again'}",
                f"Pass `{key.label}` to `{state.name}` as an argument",
                related=_related(key.made, here),
            )
            return
        path = changes[0]
        change = _change_text(key.snapshot, snapshot, path, key.label)
        written = self._written_at(key, path)
        if written is not None:
            change += f" at {_place(written)}"
        related = _related(key.made, here, written)
        if key.origin == "self":
            cls = type(key.obj)
            self._finding(
                "JAX201", state.site or here, ("JAX201", state.site, path),
                f"`{state.short_transform}` of bound method `{cls.__name__}.{getattr(state.fun, '__name__', 'method')}` baked "
                f"in the state of its object when traced; {change} since, and {consequence}",
                f"Jit a function that takes the `{cls.__name__}` state it reads as arguments, or make `self` static "
                f"with an immutable `{cls.__name__}`",
                related=related,
            )
            return
        if key.origin == "closure":
            cls = type(key.obj)
            self._finding(
                "JAX203", state.site or here, ("JAX203", state.site, path),
                f"the function given to `{state.short_transform}` closes over `{key.name}` (a `{cls.__name__}`) and baked "
                f"in its state when traced; {change} since, and {consequence}",
                f"Pass the state the function reads (`{key.name}{path[0] if path else ''}`) as an argument",
                related=related,
            )
            return
        if key.origin == "global":
            self._finding(
                "JAX204", state.site or here, ("JAX204", state.name, key.label, path),
                f"`{state.name}` read {'global' if key.namespace is not None else 'closed-over'} `{key.label}` when it "
                f"was traced; {change} since, and {consequence}",
                f"Pass `{key.label}` to `{state.name}` as an argument",
                related=related,
            )
            return
        code, cls, field = _blame(key, snapshot, path)
        if key.origin == "aux" and not state.spec.filtered:
            if _is_array_change(key.snapshot, snapshot, path):
                code, cls, field = ("JAX302" if dataclasses.is_dataclass(key.node) else "JAX301"), key.node, key.label
            elif cls is not key.node:  # (a class registered as a static node is its own aux_data: JAX101 stays)
                code, cls, field = "JAX303", key.node, key.label
        site = (places.field_site(cls, field) if field else places.class_site(cls)) if cls is not None else None
        site = site or here
        where = f"became a key of `{state.name}` under `{state.short_transform}` at {_place(key.made)}"
        what = {
            "JAX101": f"`{cls.__name__ if cls else key.label}` is mutable: {change} after `{key.label}` {where}",
            "JAX104": f"`{cls.__name__ if cls else key.label}` holds a mutable `{field}`: {change} after `{key.label}` {where}",
            "JAX105": f"`{cls.__name__ if cls else key.label}.{field}` holds a bound method whose object changed: {change} after `{key.label}` {where}",
            "JAX301": f"the `aux_data` of `{_name(key.node)}` holds an array, changed in place: {change} after it {where}",
            "JAX302": f"static field `{field or key.label}` of `{_name(key.node)}` holds an array, changed in place: {change} after it {where}",
            "JAX303": f"the `aux_data` of `{_name(key.node)}` holds a mutable `{type(key.obj).__name__}`: {change} after it {where}",
        }[code]
        fix = {
            "JAX101": f"Make `{_name(cls)}` immutable (`@dataclass(frozen=True)`) and pass a changed copy, or pass the changing value as a traced argument",
            "JAX104": f"Hold an immutable value (a tuple, a frozen dataclass) in `{field}`, or pass it as a traced argument",
            "JAX105": f"Store a module-level function in `{field}` and pass the state it reads as an argument",
            "JAX301": "Keep arrays among the children returned by the flatten function, not in `aux_data`",
            "JAX302": f"Make `{field}` a pytree field (not static), or hold a tuple in it",
            "JAX303": "Put only immutable, hashable values (tuples, numbers, frozen dataclasses) in `aux_data`",
        }[code]
        if key.origin in ("static", "leaf"):
            consequence = _why(key.obj, cls, traced)
        self._finding(code, site, (code, cls, field, path, traced), f"{what}; {consequence}", fix, related=related)

    # -- a trace ------------------------------------------------------------

    def _traced(self, state: FunctionState, args, kwargs, here: Site) -> None:
        self._recreated(state, here)
        for key in state.baked:
            if key.namespace is not None:
                key.obj = key.namespace.get(key.name, key.obj)
            key.snapshot = None if is_plain_value(key.obj) else take(key.obj, only_read(key))
            key.quick = quick(key)
            key.made = here
            self._watch_writes(key)
        self._aux(state, state.spec.dynamic(args, kwargs), here)

    def _recreated(self, state: FunctionState, here: Site) -> None:
        """JAX401: a function made anew, jitted at the same place, traced again after the last transformed
        function made there was dropped (JAX's cache may keep the function itself: equinox's does). The same
        function object jitted again reuses its traces: a trace then is for new argument types, not JAX401."""
        if state.site is None:
            return
        code = code_of(state.fun)
        if code is None:
            return
        made = self._made_at.setdefault((state.site, code), [])
        if any(reference() is None and fun is not state.fun for reference, fun in made):
            kind = _kind_text(*_callable_kind(state.fun))
            self._finding(
                "JAX401", state.site, ("JAX401", state.site),
                f"`{state.short_transform}` is applied here to a new {kind} each time this line runs, and the last one "
                f"was dropped: its cache went with it, so every call traces and compiles again",
                "Apply the transform once (at module level, or in `__init__`) and reuse the transformed function",
                related=(Related(here.path, here.line, here.column, "traced again here"),),
            )
        if all(reference is not state.watched for reference, _ in made):
            made.append((state.watched, state.fun))
        del made[:-8]

    def _aux(self, state: FunctionState, dynamic, here: Site) -> None:
        entries = aux_entries(dynamic, self.flatten_functions)
        previous = {(path, node): (aux, snapshot) for path, node, _, aux, snapshot in state.last_aux}
        watched = {id(key.obj): key for key in state.roots}
        held = reachable(dynamic) if entries else set()
        for path, node, instance, aux, snapshot in entries:
            self._arrays_in_aux(state, node, instance, aux, here)
            before = previous.get((path, node))
            if before is not None and before[1] is not None and snapshot is not None and before[1].tokens == snapshot.tokens:
                try:
                    equal = bool(before[0] == aux)
                except Exception:  # noqa: BLE001 - arrays; reported above
                    equal = True
                if not equal:
                    self._unstable_aux(state, node, instance, aux, here)
            for part in aux_parts(aux, held):
                part_snapshot = take(part)
                if not worth_watching(part_snapshot):
                    continue
                known = watched.get(id(part))
                if known is not None and known.obj is part:
                    known.snapshot = part_snapshot
                    continue
                field = _instance(node) if part is instance else field_holding(instance, part) or f"aux_data of {node.__name__}"
                key = Key(part, part_snapshot, field, "aux", here, node=node)
                self._watch_writes(key)
                watched[id(part)] = key
                state.roots.append(key)
        del state.roots[:-_ROOTS_KEPT]
        state.last_aux = entries

    def _arrays_in_aux(self, state, node, instance, aux, here) -> None:
        for value in flat(aux):
            if isinstance(value, (np.ndarray, jax.Array)) and not isinstance(value, jax.core.Tracer):
                field = field_holding(instance, value)
                kind = "a numpy array" if isinstance(value, np.ndarray) else "a JAX array"
                if field is not None and dataclasses.is_dataclass(node):
                    site = places.field_site(node, field) or here
                    self._finding(
                        "JAX302", site, ("JAX302", node, field),
                        f"static field `{field}` of `{node.__name__}` holds {kind} (seen at {_place(here)}): JAX compares it "
                        f"with `==` on every lookup (an error for two equal arrays), traces it when the pytree is rebuilt "
                        f"inside `jit`, and serves a stale result after an in-place change",
                        f"Make `{field}` a pytree field (not static), or hold a tuple of numbers in it",
                    )
                else:
                    site = flatten_site(node, self.flatten_functions) or here
                    self._finding(
                        "JAX301", site, ("JAX301", node),
                        f"the `aux_data` of `{node.__name__}` holds {kind}{f' (`{field}`)' if field else ''} (seen at "
                        f"{_place(here)}): JAX compares it with `==` on every lookup (an error for two equal arrays), "
                        f"traces it when the pytree is rebuilt inside `jit`, and serves a stale result after an in-place change",
                        "Return arrays among the children of the flatten function, not in `aux_data`",
                    )
                return

    def _unstable_aux(self, state, node, instance, aux, here) -> None:
        values = list(flat(aux))
        held = next((value for value in values if isinstance(value, (types.FunctionType, types.MethodType))), None)
        if held is None:
            held = next((value for value in values if not is_plain_value(value) and type(value).__hash__ is object.__hash__
                         and type(value).__module__.split(".")[0] not in ("equinox", "flax", "jax", "penzai")), aux)
        field = field_holding(instance, held)
        if field is not None and dataclasses.is_dataclass(node):
            site = places.field_site(node, field) or here
        else:
            site = flatten_site(node, self.flatten_functions) or here
        kind = _kind_text(*_callable_kind(held)) if callable(held) else f"new `{type(held).__name__}`"
        self._finding(
            "JAX304", site, ("JAX304", node),
            f"the `aux_data` of `{node.__name__}` holds a {kind}{f' (`{field}`)' if field else ''} made anew for each "
            f"flatten: it never compares equal to the last one, so `{state.name}` traces and compiles again at {_place(here)}",
            "Keep a module-level function or a value that compares by value in `aux_data`",
            related=(Related(here.path, here.line, here.column, "traced again here"),),
        )

    # -- an error -----------------------------------------------------------

    def _failed(self, state, error, args, kwargs, statics, here: Site) -> None:
        text = str(error)
        if _NON_HASHABLE in text:
            for label, value in statics:
                try:
                    hash(value)
                except Exception as inner:  # noqa: BLE001
                    self._unhashable(state, label, value, inner, here)
                    return
        elif "Error interpreting argument to" in text and args:
            self._method_not_static(state, args[0], here)
        elif "metadata fields of pytree" in text or type(error).__name__ == "UnexpectedTracerError":
            for path, node, instance, aux, _ in aux_entries(state.spec.dynamic(args, kwargs), self.flatten_functions):
                self._arrays_in_aux(state, node, instance, aux, here)

    def _unhashable(self, state, label, value, error, here) -> None:
        cls = type(value)
        explained = f"JAX raised `ValueError: {_NON_HASHABLE}`"
        if getattr(cls, "__hash__", None) is None or cls in (list, dict, set, bytearray) or isinstance(value, (np.ndarray, jax.Array)):
            user = places.user_class(cls) and places.class_site(cls)
            site = user or here
            why = "it defines `__eq__` without `__hash__`, or is a mutable dataclass" if user else "it is mutable"
            self._finding(
                "JAX106", site, ("JAX106", cls, label),
                f"static `{label}` of `{state.name}` at {_place(here)} is a `{cls.__name__}`, which is unhashable ({why}): "
                f"{explained}",
                f"Pass a hashable, immutable value: a tuple, a frozen dataclass, or `{label}`'s fields as separate static arguments",
                related=(Related(here.path, here.line, here.column, "passed as a static argument here"),),
            )
            return
        field = _unhashable_field(value)
        if field is None:
            site = places.class_site(cls) if places.user_class(cls) else None
            self._finding(
                "JAX106", site or here, ("JAX106", cls, label),
                f"static `{label}` of `{state.name}` at {_place(here)} is a `{cls.__name__}`, whose `__hash__` fails "
                f"(it defines `__eq__`, and its hash cannot be computed): {explained}",
                f"Give `{cls.__name__}` a `__hash__` consistent with its `__eq__`, or pass its fields as static arguments",
                related=(Related(here.path, here.line, here.column, "passed as a static argument here"),),
            )
            return
        site = places.field_site(cls, field) if field else places.class_site(cls)
        self._finding(
            "JAX104", site or here, ("JAX104", cls, field),
            f"static `{label}` of `{state.name}` at {_place(here)} is a `{cls.__name__}` whose field `{field}` holds an "
            f"unhashable value, so hashing it fails: {explained}",
            f"Hold an immutable value (a tuple, a frozen dataclass) in `{field}`, or pass it as a traced argument",
            related=(Related(here.path, here.line, here.column, "passed as a static argument here"),),
        )

    def _method_not_static(self, state, receiver, here) -> None:
        cls = type(receiver)
        if is_plain_value(receiver) or isinstance(receiver, (np.ndarray, jax.Array)):
            return
        self._finding(
            "JAX202", state.site or here, ("JAX202", state.site),
            f"`{state.short_transform}` on method `{cls.__name__}.{getattr(state.fun, '__name__', '?')}` passes `self` as a "
            f"traced argument, but `{cls.__name__}` is not a pytree: JAX raised `TypeError: Error interpreting argument` at {_place(here)}",
            f"Register `{cls.__name__}` as a pytree, or jit a function of the arrays it needs",
        )

    # -- making findings ----------------------------------------------------

    def _finding(self, code: str, site: Site, key, message: str, fix: str, related=()) -> None:
        self.report(Finding.of(site.path, site.line, site.column, code, message, fix=fix, related=tuple(related)), key)


_KEPT_AT_MOST = 4096  # objects the observer keeps a reference to in one table (the oldest go first)


def _bound(table: dict) -> None:
    while len(table) > _KEPT_AT_MOST:
        del table[next(iter(table))]


def _nothing_new(state: FunctionState, statics) -> bool:
    """The call's static values are all plain, known unchangeable keys, or new frozen objects equal
    in state to a key (the common case, checked first and fast)."""
    fixed, shallow = state.fixed_ids, state.shallow
    for _, value in statics:
        if id(value) in fixed or is_plain_value(value):
            continue
        if shallow:
            state_of = shallow_state(value)
            if state_of is not None and state_of in shallow:
                continue
        return False
    return True


def _why(key_object, blamed, traced: bool) -> str:
    """What JAX did with a static key whose state changed, and why (SPEC 1): the key, or the object in it
    whose state changed (`blamed`), hashes by identity or by value."""
    if isinstance(key_object, types.MethodType):
        name, by_identity = "a bound method", "the identity of its object"
    else:
        holder = blamed if blamed is not None and not isinstance(key_object, blamed) else type(key_object)
        name = f"`{holder.__name__}`"
        by_identity = "identity" if holder.__hash__ is object.__hash__ or (holder is type(key_object) and _hashes_by_id(key_object)) else ""
    if traced:
        return (f"{name} hashes by value, so the changed object missed its entry: JAX traced and compiled again, "
                f"and keeps the old entry keyed on the changed object")
    if by_identity:
        return f"{name} hashes by {by_identity}, so the changed object still finds its old entry: {_STALE}"
    return f"the entry is keyed on this very object, which still compares equal to itself: {_STALE}"


def _place(site: Site | None) -> str:
    if site is None:
        return "an earlier call"
    return place_named(site.path, site.line, site.column)


def _made(state: FunctionState) -> tuple:
    return (Related(state.site.path, state.site.line, state.site.column, f"`{state.short_transform}` applied here"),) if state.site else ()


def _related(made: Site | None, here: Site, written: Site | None = None) -> tuple:
    related = []
    if made is not None:
        related.append(Related(made.path, made.line, made.column, "became a cache key here"))
    if written is not None:
        related.append(Related(written.path, written.line, written.column, "changed here"))
    if made != here:
        related.append(Related(here.path, here.line, here.column, "called again here"))
    return tuple(related)


def _name(cls) -> str:
    return getattr(cls, "__name__", str(cls))


def _instance(cls) -> str:
    name = cls.__name__
    return name[:1].lower() + name[1:]


def _value_text(value) -> str:
    text = repr(value)
    if len(text) > 40 or text.startswith("<"):
        return f"a `{type(value).__name__}`"
    return f"`{text}`"


def _change_text(old: Snapshot, new: Snapshot, path: tuple, root: str = "") -> str:
    """`cfg.scale` changed from 2 to 3."""
    name = f"`{root}{''.join(path)}`" if root else (f"`{''.join(path).lstrip('.')}`" if path else "its value")
    return f"{name} changed from {describe(old, path)} to {describe(new, path)}"


def _blame(key: Key, snapshot: Snapshot, path: tuple) -> tuple[str, type | None, str | None]:
    """The rule and class at fault for a change at `path` below a key: the outermost mutable object on the
    way (JAX101); a bound method held in a field (JAX105); else a mutable container held by an immutable
    object (JAX104)."""
    holders = key.snapshot.holders
    prefixes = [path[:length] for length in range(len(path))]
    for prefix in prefixes:
        holder = holders.get(prefix, ())
        if holder[:1] == ("method",) and prefix:
            owner = holders.get(prefix[:-1], ())
            owner_cls = owner[1] if owner[:1] == ("object",) else None
            if owner_cls is not None:
                return "JAX105", owner_cls, prefix[-1].lstrip(".")
        if holder[:1] == ("method",) and not prefix:
            continue
        if holder[:1] == ("object",) and not holder[2]:
            return "JAX101", holder[1], None
        if holder[:1] == ("class",):
            return "JAX101", holder[1], None
    for prefix in reversed(prefixes):
        holder = holders.get(prefix, ())
        if holder[:1] == ("object",):
            field = path[len(prefix)].lstrip(".") if len(path) > len(prefix) else None
            return "JAX104", holder[1], field
    return "JAX104", None, None


def _is_array_change(old: Snapshot, new: Snapshot, path: tuple) -> bool:
    return old.holders.get(path, ("",))[0] == "ndarray" or new.holders.get(path, ("",))[0] == "ndarray"


def _owner_of(old: Snapshot, new: Snapshot, path: tuple):
    """The innermost object holding the changed path (whose hash and `==` left it out); for an object
    replaced by one of another class, that object's class (its `==` accepted the other type)."""
    before, after = old.holders.get(path, ()), new.holders.get(path, ())
    if before[:1] == ("object",) and after[:1] == ("object",) and before[1] is not after[1]:
        return before
    for length in range(len(path) - 1, -1, -1):
        holder = old.holders.get(path[:length], ())
        if holder[:1] == ("object",):
            if new.tokens.get(path[:length]) != old.tokens.get(path[:length]):
                continue  # the type itself differs: blame the one that compared it
            return holder
    return old.holders.get((), None) if old.holders.get((), ("",))[0] == "object" else None


def _hash_site(cls):
    for owner in cls.__mro__:
        if owner is object:
            break
        if "__hash__" in vars(owner) or "__eq__" in vars(owner):
            function = vars(owner).get("__hash__") or vars(owner).get("__eq__")
            if isinstance(function, types.FunctionType) and not function.__code__.co_filename.startswith("<"):
                site = places.function_site(function)
                if site is not None:
                    return site
            return places.class_site(owner)
    return places.class_site(cls)


def _identity_culprit(old, new, depth: int = 0, field=None):
    """Why two values of equal state compare unequal: ("identity", obj, None) for a class hashing by identity,
    ("method"|"function"|"partial", value, (owner, name) or None) for a callable made anew."""
    if depth > 4 or old is new:
        return None
    kind = type(new)
    if isinstance(new, types.MethodType):
        if old.__self__ is not new.__self__:
            return "method", new, field
        return None
    if isinstance(new, types.FunctionType):
        return ("function", new, field) if old is not new else None
    if isinstance(new, functools.partial):
        return "partial", new, field
    try:
        if old == new:
            return None
    except Exception:  # noqa: BLE001
        return None
    if isinstance(new, (tuple, list)):
        for a, b in zip(old, new):
            found = _identity_culprit(a, b, depth + 1, field)
            if found:
                return found
        return None
    if isinstance(new, dict):
        for name in new:
            found = _identity_culprit(old.get(name), new[name], depth + 1, field)
            if found:
                return found
        return None
    if is_plain_value(new):
        return None
    if kind.__eq__ is object.__eq__ or kind.__hash__ is object.__hash__ or _hashes_by_id(new):
        return "identity", new, None
    attributes = getattr(new, "__dict__", None) or {}
    for name, value in attributes.items():
        found = _identity_culprit(getattr(old, name, None), value, depth + 1, (new, name))
        if found:
            return found
    return "identity", new, None


def _hashes_by_id(value) -> bool:
    try:
        return hash(value) == id(value) or hash(value) == object.__hash__(value)
    except Exception:  # noqa: BLE001
        return False


def _callable_kind(value):
    if isinstance(value, types.MethodType):
        return "method", value
    if isinstance(value, functools.partial):
        return "partial", value
    if isinstance(value, types.FunctionType):
        return "function", value
    return "object", value


def _kind_text(kind: str, value) -> str:
    if kind == "function":
        name = getattr(value, "__name__", "")
        return "lambda" if name == "<lambda>" else f"nested function `{name}`" if "<locals>" in getattr(value, "__qualname__", "") else f"function `{name}`"
    if kind == "method":
        return f"bound method `{type(value.__self__).__name__}.{value.__func__.__name__}`"
    if kind == "partial":
        return "`functools.partial`"
    if kind == "identity":
        return f"`{type(value).__name__}` (hashing by identity)"
    return f"`{type(value).__name__}`"


def _unhashable_field(value) -> str | None:
    if dataclasses.is_dataclass(value):
        attributes = {field.name: getattr(value, field.name, None) for field in dataclasses.fields(value)}
    else:
        attributes = {name: held for name, held in (getattr(value, "__dict__", None) or {}).items() if not name.startswith("_")}
    for name, held in attributes.items():
        try:
            hash(held)
        except Exception:  # noqa: BLE001
            return name
    return None


