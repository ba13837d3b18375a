"""Values a trace bakes in: module-level and closed-over values that jitted code reads, and their later changes.

JAX runs a jitted function's Python once per compilation. A global or a
closed-over variable it reads is read then, and its value is compiled in as a
constant: a later change (the name bound again, a dict or list changed in
place, an attribute set) is not seen by calls that hit the cache. The change
is a hazard only when it can come after the first call, which the code shows
when one scope calls the jitted function and then makes the change.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cached_property

from jaxcheck import facts as f
from jaxcheck.facts import Ref
from jaxcheck.model.calls import by_path
from jaxcheck.model.jax_api import MUTATORS
from jaxcheck.model.functions import Functions
from jaxcheck.model.symbols import Symbols

_CALLS_DEEP = 3  # how far the functions a jitted function calls are followed


@dataclass(frozen=True)
class Jitted:
    """A function a caching transform compiles, and the names its calls go by."""

    function: str  # qualname
    path: str  # where the transform is applied
    location: f.Location  # the decorator or the transform call
    names: frozenset[Ref]  # the function, and the names a `jit(fn)` is bound to


@dataclass(frozen=True)
class Baked:
    """A value a jitted function reads while tracing, changed after a call of it."""

    variable: Ref  # the module-level name, class attribute or enclosing function's local
    read_by: str  # the traced function that reads it
    jitted: Jitted
    change_path: str
    change: f.Location
    change_text: str  # "SCALES[...] = ...", "SCALE = ...", "REGISTRY.update(...)"
    call_path: str  # the call of the jitted function the change follows
    call: f.Location
    offered: bool = False  # made by a setter the library offers its users, after any trace (latent)
    setter: str = ""  # that setter
    users_jit: bool = False  # no jitted function of the project reads it: `read_by` is array code its users jit


class Constants:
    """The values the project's jitted functions bake in, and the changes that make them stale."""

    def __init__(self, symbols: Symbols, functions: Functions) -> None:
        self.symbols = symbols
        self.functions = functions
        # Memos: every change of a variable is asked about for each jitted function and each reader.
        self._changes_of: dict[Ref, list[tuple[str, f.Location, str, str]]] = {}
        self._runs_of: dict[Jitted, dict[tuple[str, str], list[f.Location]]] = {}
        self._definitions: dict[str, Counter[str]] = {}
        self._variables: dict[Ref, Ref | None] = {}
        self._reads_of: dict[str, list[tuple[Ref, list[tuple[str, f.Location, str, str]]]]] = {}
        self._traced: dict[str, list[str]] = {}
        self._called: dict[str, set[str]] = {}
        self._scopes: dict[str, dict[str, list[f.Value]]] = {}
        self._callers_of: dict[str, list[tuple[str, str, f.Value]]] = {}
        self._scope_ranks: dict[str, dict[str, int]] = {}

    @cached_property
    def jitted(self) -> list[Jitted]:
        found = []
        for item in self.functions.compiled:
            if not item.application.transform.compiles:
                continue
            names = {Ref(item.function.qualname)}
            if item.call is not None:
                names.update(self.symbols.bound_names(item.path, item.call))
            found.append(Jitted(item.function.qualname, item.path, item.application.location, frozenset(names)))
        return found

    def _calls_in(self, path: str, scope: str) -> list[f.Value]:
        """The calls made in `scope` (a function, or "" for module level) of the file, in order."""
        return self._scopes_of(path).get(scope, [])

    def _scopes_of(self, path: str) -> dict[str, list[f.Value]]:
        """Each scope of the file -> the calls made there, in order: per file,
        as most questions are about a few files."""
        known = self._scopes.get(path)
        if known is None:
            known = self._scopes[path] = defaultdict(list)
            for enclosing, call in self.symbols.modules[path].calls:
                known[enclosing].append(call)
            for calls in known.values():
                calls.sort(key=lambda call: call.location)
        return known

    def baked(self) -> list[Baked]:
        found = []
        for jitted in self.jitted:
            if self._redefined(jitted):
                continue  # which definition a call runs needs the order the code runs in (a notebook's cells)
            traced = self._traced_from(jitted.function)
            tracing = set(traced)
            for reader in traced:
                for variable, changes in self._changed_reads(reader):
                    if any(scope in tracing for _, _, _, scope in changes):
                        continue  # changed while tracing: a trace-time record (`TRACES.append(...)`), not an input
                    for path, location, text, scope in changes:
                        after = self._after_a_call(jitted, path, scope, location, variable)
                        if after is not None:
                            found.append(Baked(variable, reader, jitted, path, location, text, *after))
                        elif self._offered_setter(variable, scope, location):
                            found.append(Baked(variable, reader, jitted, path, location, text, jitted.path, jitted.location, True, scope))
        found = self._offered_to_users_tracing() + found  # a jitted function of the project, where one reads it, is named instead
        # A change after a call in the code is the evidence to show; a user's call of a setter, the latent case.
        unique: dict = {}
        for item in sorted(found, key=lambda item: item.offered, reverse=True):
            unique[item.change_path, item.change, item.variable] = item
        setters: dict = {}  # one finding per setter: its first change (`with fixed_size(n)` sets, then restores)
        for item in sorted(unique.values(), key=lambda item: (item.change_path, item.change)):
            setters.setdefault((item.variable, item.setter) if item.offered else item, item)
        return list(setters.values())

    def _offered_to_users_tracing(self) -> list[Baked]:
        """A library setter that rebinds a module-level constant (`def
        set_radius(r): global RADIUS; RADIUS = r` with `RADIUS = 3`) read by a
        public module-level function of array code (it calls `jax.numpy`,
        `jax.lax` and kin) that no jitted function of the project reaches: its
        users jit it, or pass it on to code they jit (`make(env,
        observation_fn=first_person)`), and may call the setter after the first
        trace (latent). Reported once per setter, naming a reader; the jitted
        function is the reader as its users jit it. A global holding an object,
        a list or None is state the code calls into, not a constant it bakes."""
        traced = None
        found = []
        for reader, facts in self.symbols.functions.items():
            path = self.symbols.path_of.get(reader, "")
            if reader.rpartition(".")[0] != self.symbols.modules[path].module:
                continue  # a method (a constructor reading a switch) runs as set up, not as traced array code
            changed = [(variable, changes) for variable, changes in self._changed_reads(reader) if self._a_constant(variable)]
            if not changed or not self.functions.public_api(reader) or not self._array_code(reader):
                continue
            if traced is None:
                traced = {name for jitted in self.jitted for name in self._traced_from(jitted.function)}
            if reader in traced or any((path, reader) in self._runs(jitted) for jitted in self.jitted):
                continue  # traced by the project's own jit, or a driver running eagerly around one (`fit`)
            for variable, changes in changed:
                for change_path, location, text, scope in changes:
                    if scope != reader and self._offered_setter(variable, scope, location):
                        users = Jitted(reader, path, facts.location, frozenset())
                        found.append(
                            Baked(variable, reader, users, change_path, location, text, path, facts.location, True, scope, True)
                        )
        return found

    def _a_constant(self, variable: Ref) -> bool:
        """Bound at module level to a number, a string, True or False, or a tuple of those (not None)."""
        bound = [binding.value for binding in self.symbols.bindings.get(variable, ()) if not binding.function]
        return bool(bound) and all(
            value.kind in (f.CONSTANT, f.TUPLE) and value.literal is not None and value.literal != () for value in bound
        )

    def _array_code(self, function: str) -> bool:
        """The function's own body (its nested functions' too) computes with arrays (`jnp.zeros`,
        `jax.lax.cond`, `jax.random.split`): code meant to be traced, not `jax.config` or a profiler."""
        path = self.symbols.path_of.get(function)
        scopes = (function, *self._nested.get(function, ())) if path is not None else ()
        return any(
            call.dotted.startswith(f.ARRAY_NAMESPACES) for scope in scopes for call in self._calls_in(path, scope) if call.dotted
        )

    def _offered_setter(self, variable: Ref, scope: str, location: f.Location) -> bool:
        """A module-level value of the library rebound (`global RADIUS; RADIUS =
        r`) by a function or context manager the library offers its users
        (`set_radius`, `with fixed_size(n)`): they call it whenever they like,
        also after a jitted function that reads the value was traced. Not an
        in-place change (an entry added to a registry is read by no earlier
        trace)."""
        if variable.is_local or not scope:
            return False
        if not any(binding.location == location for binding in self.symbols.bindings.get(variable, ())):
            return False  # changed in place, not rebound
        path = self.symbols.path_of.get(scope, "")
        return bool(path) and self.functions.in_library(path) and self.functions.offered_to_users(scope)

    def _redefined(self, jitted: Jitted) -> bool:
        """The jitted function, or a class or function it is defined in, is
        defined more than once in its module: calls cannot be told apart."""
        return self._defined_twice(jitted.path, jitted.function)

    def _defined_twice(self, path: str, qualname: str) -> bool:
        """`qualname`, or a class or function it is in, is defined more than once in the module at `path`."""
        counts = self._definitions.get(path)
        if counts is None:
            module = self.symbols.modules[path]
            counts = self._definitions[path] = Counter(
                [function.qualname for function in module.functions] + [cls.qualname for cls in module.classes]
            )
        parts = qualname.split(".")
        return any(counts[".".join(parts[:end])] > 1 for end in range(len(parts), 1, -1))

    def _changed_reads(self, reader: str) -> list[tuple[Ref, list[tuple[str, f.Location, str, str]]]]:
        """The variables the function reads that are changed somewhere, with their
        changes, in the order read: asked for each jitted function that traces
        it, and most functions are traced by many."""
        known = self._reads_of.get(reader)
        if known is None:
            known = self._reads_of[reader] = []
            for read in self.symbols.functions[reader].outer_reads:
                variable = self._variable(read)
                if variable is not None:
                    changes = self._changes(variable)
                    if changes:
                        known.append((variable, changes))
        return known

    def _traced_from(self, root: str) -> list[str]:
        """The function, the functions nested in it, and the project functions they call (a few calls deep)."""
        known = self._traced.get(root)
        if known is None:
            known = self._traced[root] = self._traced_from_uncached(root)
        return known

    def _traced_from_uncached(self, root: str) -> list[str]:
        seen = {root}
        frontier = [root]
        for _ in range(_CALLS_DEEP):
            following = []
            for function in frontier:
                for callee in self._called_in(function):
                    if callee not in seen:
                        seen.add(callee)
                        following.append(callee)
            frontier = following
        nested = {name for function in seen for name in self._nested.get(function, ())}
        return sorted(seen | nested)

    def _called_in(self, function: str) -> set[str]:
        """The project functions the function's calls (its nested functions' too)
        may run: once per function, where each jitted function that reaches
        it would look again."""
        known = self._called.get(function)
        if known is None:
            known = self._called[function] = set()
            path = self.symbols.path_of.get(function)
            for scope in (function, *self._nested.get(function, ())) if path is not None else ():
                for call in self._calls_in(path, scope):
                    known.update(self.functions.callees(call.ref))
        return known

    def _variable(self, read: Ref) -> Ref | None:
        """The variable a read names: a module-level name bound by assignment, or
        an enclosing function's local."""
        if read not in self._variables:
            self._variables[read] = self._variable_uncached(read)
        return self._variables[read]

    def _variable_uncached(self, read: Ref) -> Ref | None:
        if read.is_local:
            base = read.base
            return base if base in self.symbols.bindings else None
        return self.symbols.module_variable(read) or self.symbols.class_variable(read)

    @cached_property
    def _in_place(self) -> dict[Ref, list[tuple[str, f.Location, str, str]]]:
        """Every in-place change in the project (item and attribute writes,
        mutating calls), under each variable it may change: built once."""
        found: dict[Ref, list[tuple[str, f.Location, str, str]]] = defaultdict(list)
        mutating = by_path(self.symbols.calls.where(last=MUTATORS))
        for path, module in self.symbols.modules.items():
            for write in module.item_writes:
                for variable in self._candidates(write.target):
                    found[variable].append((path, write.location, "[...] = ...", write.function))
            for write in module.attribute_writes:
                for variable in self._candidates(write.target):
                    found[variable].append((path, write.location, f".{write.attribute} = ...", write.function))
                if not write.target.is_local and (
                    self.symbols.is_module(write.target) or self.symbols.lookup_class(write.target)
                ):
                    # `config.SCALE = 4.0`: another module's variable bound again through its module;
                    # `Config.scale = 3.0`: a class attribute bound again.
                    for variable in self._candidates(write.target.attribute(write.attribute)):
                        found[variable].append((path, write.location, " = ...", write.function))
            for _, enclosing, call in mutating.get(path, ()):
                ref = call.ref
                if ref.parent is not None:
                    for variable in self._candidates(ref.parent):
                        found[variable].append((path, call.location, f".{ref.last}(...)", enclosing))
        return found

    def _candidates(self, ref: Ref) -> list[Ref]:
        """The variable a written name changes: a local itself, or a module-level name."""
        if ref.is_local:
            return [ref.base]
        variable = self.symbols.module_variable(ref) or self.symbols.class_variable(ref)
        return [variable] if variable is not None else []

    def _changes(self, variable: Ref) -> list[tuple[str, f.Location, str, str]]:
        """Where the value is changed once first bound: (file, where, how, enclosing function)."""
        known = self._changes_of.get(variable)
        if known is None:
            known = self._changes_of[variable] = self._changes_uncached(variable)
        return known

    def shown_name(self, variable: Ref) -> str:
        """How a message names a variable: `SCALE`, `scale` (a local), `Config.scale` (a class attribute)."""
        if variable.is_local:
            return variable.name
        owner, _, name = variable.name.rpartition(".")
        return f"{owner.rpartition('.')[2]}.{name}" if owner in self.symbols.classes else name

    def _changes_uncached(self, variable: Ref) -> list[tuple[str, f.Location, str, str]]:
        name = self.shown_name(variable)
        bindings = sorted(self.symbols.bindings.get(variable, ()), key=lambda binding: binding.location)
        home = variable.function if variable.is_local else ""
        first = next((binding for binding in bindings if binding.function == home), None)
        found = [
            (self._path(binding.function, variable), binding.location, f"{name} = ...", binding.function)
            for binding in bindings
            if binding is not first
        ]
        found += [(path, location, name + how, scope) for path, location, how, scope in self._in_place.get(variable, ())]
        return found

    def _path(self, function: str, variable: Ref) -> str:
        if function:
            return self.symbols.path_of.get(function, "")
        return self.symbols.path_of.get(variable.name, "") or self._module_path(variable.name)

    def _module_path(self, qualname: str) -> str:
        return self._module_paths.get(qualname.rpartition(".")[0], "")

    @cached_property
    def _module_paths(self) -> dict[str, str]:
        """Each module's name -> its file (the first, as the files are ordered)."""
        found: dict[str, str] = {}
        for path, facts in self.symbols.modules.items():
            found.setdefault(facts.module, path)
        return found

    def _after_a_call(
        self, jitted: Jitted, path: str, scope: str, location: f.Location, variable: Ref
    ) -> tuple[str, f.Location] | None:
        """A call that runs the jitted function before the change runs, as (file,
        where), when a call after the change can hit the cache entry it made:
        earlier in the scope of the change, or earlier in a scope that calls
        the function making the change. A change after the last call that can
        use the entry (a test that changes a value and never calls again)
        makes nothing stale."""
        before = self._call_before(jitted, path, scope, location)
        if before is not None:
            return (path, before) if self._used_again(jitted, path, scope, location, before, variable) else None
        if not scope:
            return None
        if self._changer_handed_out(jitted, scope):
            return jitted.path, jitted.location
        for caller_path, caller, call in self._callers(scope):
            before = self._call_before(jitted, caller_path, caller, call.location)
            if before is not None and self._used_again(jitted, caller_path, caller, call.location, before, variable):
                return caller_path, before
        return None

    def _used_again(
        self, jitted: Jitted, path: str, scope: str, change: f.Location, before: f.Location, variable: Ref
    ) -> bool:
        """Whether the jitted function runs again after `change` in `scope`,
        where `before` ran it first: a later call there; the call and the
        change both made on every turn of a loop (the next turn calls again); or,
        for a module-level value, which outlives the scope, the scope run again
        (called repeatedly by the project, or a function a library offers its
        users)."""
        if any(later > change for later in self._runs(jitted).get((path, scope), ())):
            return True
        module = self.symbols.modules[path]
        if before in module.repeated and (change in module.looped_writes or change in module.repeated):
            return True  # the call and the change in a loop: the next turn calls again
        if not scope:  # changed on import: the module's users call the jitted function afterwards
            return self.functions.public_api(jitted.function)
        if variable.is_local:
            return False
        return scope in self.functions.called_repeatedly or (
            self.functions.offered_to_users(scope)
        )

    def _callers(self, function: str) -> list[tuple[str, str, f.Value]]:
        """The calls that may run the project function: (file, calling scope,
        call), the files in order, a file's scopes in the order they first
        call, a scope's calls by place (`_after_a_call` takes the first that
        comes before a change).

        Asked of a few functions (the scopes of changes, the callers of a
        jitted function), so the calls that can name it are looked up, not
        every call of the project resolved: a function is called by its name
        or as a method by its last name, an `__init__` by its classes. An
        instance called (`__call__`) may be held by any name: every call."""
        known = self._callers_of.get(function)
        if known is None:
            known = self._callers_of[function] = self._callers_uncached(function)
        return known

    def _callers_uncached(self, function: str) -> list[tuple[str, str, f.Value]]:
        calls = self.symbols.calls
        name = function.rpartition(".")[2]
        if name == "__call__":
            candidates = self._instance_calls
        else:
            candidates = calls.where(last=(name,), callees=(function, *self._constructed_by.get(function, ())))
        found = [item for item in candidates if function in self.functions.callees(item[2].ref)]
        return sorted(found, key=self._scope_order)

    def _scope_order(self, item: tuple[str, str, f.Value]) -> tuple[int, int, f.Location]:
        """Where a call comes among the callers: its file, its scope there, its place."""
        path, scope, call = item
        ranks = self._scope_ranks.get(path)
        if ranks is None:
            ranks = self._scope_ranks[path] = {name: rank for rank, name in enumerate(self._scopes_of(path))}
        return self._file_order[path], ranks[scope], call.location

    @cached_property
    def _instance_calls(self) -> list[tuple[str, str, f.Value]]:
        """The calls that may run some `__call__`: each callee that can resolve
        to one resolved once, not each call; not a pass over every call."""
        callees = self.functions.callees
        refs = {
            ref
            for ref in self.symbols.calls.callees
            if self._may_run_a_call_method(ref) and any(name.endswith(".__call__") for name in callees(ref))
        }
        named = {ref.last for ref in refs}
        return [item for item in self.symbols.calls.where(last=named) if item[2].ref in refs]

    def _may_run_a_call_method(self, ref: Ref) -> bool:
        """Whether `Functions.callees` can find a `__call__` for the callee:
        named so (`obj.__call__`, a re-export of one), or a name that may hold
        an instance. Nine in ten callees are neither, and resolving them is
        most of the cost."""
        if ref.last == "__call__" or self.symbols.canonical(ref).last == "__call__":
            return True
        return self.symbols.may_hold_instances(ref)

    @cached_property
    def _file_order(self) -> dict[str, int]:
        return {path: rank for rank, path in enumerate(self.symbols.modules)}

    @cached_property
    def _constructed_by(self) -> dict[str, list[str]]:
        """Each `__init__` -> the classes whose construction runs it (its own, and subclasses that inherit it)."""
        found: dict[str, list[str]] = defaultdict(list)
        for cls in self.symbols.classes:
            method = self.symbols.find_method(cls, "__init__")
            if method is not None:
                found[method.qualname].append(cls)
        return found

    @cached_property
    def _nested(self) -> dict[str, list[str]]:
        """Each function -> the functions defined in it, at any depth."""
        functions = self.symbols.functions
        found: dict[str, list[str]] = defaultdict(list)
        for name in functions:
            outer = name.rpartition(".")[0]
            while outer:
                if outer in functions:
                    found[outer].append(name)
                outer = outer.rpartition(".")[0]
        return found

    def _changer_handed_out(self, jitted: Jitted, scope: str) -> bool:
        """A factory makes the jitted function and, beside it, a nested function
        that changes what it closes over, and calls neither: both are made for
        its callers, who can only call the changer after the factory returns."""
        factory = jitted.function.rpartition(".")[0]
        if scope.rpartition(".")[0] != factory or factory not in self.symbols.functions or scope == jitted.function:
            return False
        calls = self._calls_in(jitted.path, factory)
        return not any(call.ref is not None and call.ref.name in (scope, jitted.function) for call in calls)

    def _call_before(self, jitted: Jitted, path: str, scope: str, location: f.Location) -> f.Location | None:
        """A call in `scope` that runs the jitted function (itself, or a function that calls it) before `location`."""
        runs = self._runs(jitted).get((path, scope))
        return runs[0] if runs and runs[0] < location else None

    def _runs(self, jitted: Jitted) -> dict[tuple[str, str], list[f.Location]]:
        """(file, scope) -> the calls there that run the jitted function, in
        order: a call of one of its names, or of a function whose own body calls one."""
        known = self._runs_of.get(jitted)
        if known is not None:
            return known
        direct = [item for name in jitted.names for item in self._calls_of(name)]
        runners = {
            scope for path, scope, _ in direct
            if scope and self.symbols.path_of.get(scope) == path and not self._defined_twice(path, scope)
        }
        found: dict[tuple[str, str], list[f.Location]] = defaultdict(list)
        for path, scope, call in [*direct, *(item for runner in runners for item in self._callers(runner))]:
            found[path, scope].append(call.location)
        for locations in found.values():
            locations.sort()
        self._runs_of[jitted] = found
        return found

    def _calls_of(self, name: Ref) -> list[tuple[str, str, f.Value]]:
        """The calls of a name, as written or with re-exports followed: (file,
        calling scope, call). Such a call has the name's last name, or
        resolves to it."""
        canonical = self.symbols.canonical
        calls = self.symbols.calls.where(last=(name.last,), callees=() if name.is_local else (name.name,))
        return [item for item in calls if item[2].ref == name or canonical(item[2].ref) == name]
