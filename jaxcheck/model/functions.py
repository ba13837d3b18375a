"""The functions transforms make, what becomes of each, and which code runs again and again.

A jitted function keeps its cache for as long as it lives. Kept (stored,
returned, called again and again), it bakes in what it closed over when it
was traced (JAX2xx); made anew and thrown away on every call, it compiles
on every call (JAX401). Which of the two happens is read from the facts:
how the transform's result is used where it is made.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from functools import cached_property

from jaxcheck import facts as f
from jaxcheck.facts import Ref
from jaxcheck.model.calls import Call, by_path
from jaxcheck.model.jax_api import PARTIAL, TRACING_LIBRARIES, TRACING_NAMES, TREE_MAPS, Transform
from jaxcheck.model.state import Chain
from jaxcheck.model.symbols import Symbols
from jaxcheck.model.transforms import Application, application, unwrapped

KEPT = "kept"  # stored, returned or passed on: lives past the call that made it
REUSED = "reused"  # held in a local and called more than once
CALLED = "called"  # called where it is made: `jax.jit(f)(x)`
DROPPED = "dropped"  # made as a statement: nothing keeps it
ONCE = "once"  # held in a local called once, or made and called on each turn of a loop
PASSED = "passed"  # held in a local handed to a call, and not kept otherwise: it lives for the call
THROWAWAY = frozenset({CALLED, DROPPED, ONCE})
# Folders whose modules run as written, for their own sake, not as a library's API.
_NOT_LIBRARY_FOLDERS = frozenset(
    {"test", "tests", "testing", "example", "examples", "script", "scripts", "benchmark", "benchmarks", "bench",
     "demo", "demos", "docs", "doc", "notebooks", "tutorials", "experimental_scripts", "experiments", "baselines"}
)
_CALLS_DEEP = 3  # how far `called_repeatedly` follows calls from a loop
# Calls that register a function to run on every event of a user interface or a stream.
_EVENT_HOOK = re.compile(r"handler|callback|connect|listen|subscribe|^on_", re.IGNORECASE)
# Methods that build or set up an object, once per object: `init` and `initialize` give its first state.
BUILDING = frozenset(
    {"__init__", "__post_init__", "setup", "__new__", "__init_subclass__", "__set_name__", "init", "initialize"}
)


# The words of a name that says it sets something up (`init_model_fn`, `meta_init`, `initialized`).
_SETTING_UP = frozenset({"init", "initialize", "initialise", "initialized", "initialization", "setup"})


def sets_up(name: str) -> bool:
    """Code that sets an object or a run up once (`init`, `setup`,
    `init_model_fn`, `meta_init`, `initialized`): once per object, or per run."""
    return not name.startswith("__") and not _SETTING_UP.isdisjoint(name.lower().split("_"))


@dataclass(frozen=True)
class Made:
    """A transform applied in a module."""

    application: Application
    path: str  # the file it is in
    function: str  # the enclosing function's qualname; "" at module level
    fate: str
    nested: f.FunctionFacts | None = None  # the nested function a decorator applies it to
    # For a lambda or nested function: what it reads of parameters of the
    # function it is made in (`self.scale` of `Model.__init__`).
    reads: tuple[Ref, ...] = ()
    in_loop: bool = False  # made on every turn of a loop of the function it is in
    wrappers: tuple[str, ...] = ()  # the project decorators around the target, outermost first: `checked(self.step)`
    shape_reads: tuple[Ref, ...] = ()  # those of `reads` only tested for their keys or length: `"k" in self.opt`

    @property
    def transform(self) -> Transform:
        return self.application.transform


@dataclass(frozen=True)
class Compiled:
    """A project function a transform is applied to: `@jit` on its `def`, or `jit(fn, ...)`."""

    function: f.FunctionFacts
    application: Application
    path: str  # the file the transform is applied in
    call: f.Value | None = None  # the `jit(fn, ...)` call; None for a decorator


class Functions:
    """Transform applications and the calls between the project's functions."""

    def __init__(self, symbols: Symbols, table: dict[str, Transform]) -> None:
        self.symbols = symbols
        self.table = table
        self._made: dict[str, list[Made]] = {}
        self._traced: dict[str, set[str]] = {}
        self._callees: dict[Ref, tuple[str, ...]] = {}  # the same callee is asked about from every call of it
        self._method_calls: dict[str, list[tuple[str, Ref]]] = {}

    @cached_property
    def compiled(self) -> list[Compiled]:
        """Every application of a known transform to a project function, decorators first."""
        symbols, found = self.symbols, []
        for function in symbols.functions.values():
            for decorator in function.decorators:
                applied = application(decorator, self.table)
                if applied is not None and applied.target is None:
                    found.append(Compiled(function, applied, symbols.path_of[function.qualname]))
        for path, _, call in self._applications:
            applied = application(call, self.table)
            if applied is None or applied.target is None or applied.target.kind != f.NAME:
                continue
            function = symbols.lookup_function(applied.target.ref)
            if function is not None:
                found.append(Compiled(function, applied, path, call))
        return found

    @cached_property
    def _applications(self) -> list[Call]:
        """The calls that may apply a transform (`application` is None for every other call)."""
        table = self.table
        return self.symbols.calls.where(lambda name: name in table or name == PARTIAL, applied=True)

    @cached_property
    def _applications_by_path(self) -> dict[str, list[Call]]:
        return by_path(self._applications)

    def made(self, path: str) -> list[Made]:
        """The functions compiling transforms make in the module at `path`."""
        known = self._made.get(path)
        if known is None:
            known = self._made[path] = self._made_in(self.symbols.modules[path])
        return known

    def _made_in(self, module: f.ModuleFacts) -> list[Made]:
        """Every application of a transform to a function in the module, as a
        call (`jax.jit(fn)`) or as the decorator of a function nested in a function."""
        candidates = self._applications_by_path.get(module.path, ())
        if candidates:
            called = {value.func.key for _, _, value in candidates if value.func is not None}
            dropped = set(module.discarded)
            looped = set(module.looped)
            closures = {closure.location: closure for closure in module.closures}
        made = []
        for _, function, value in candidates:
            applied = application(value, self.table)
            if applied is None or applied.target is None:
                continue
            target, wrappers = self._decorated(applied.target)
            applied = replace(applied, target=target)
            in_loop = value.location in looped
            if value.key in called:
                fate = CALLED
            elif value.location in dropped:
                fate = DROPPED
            else:
                fate, in_loop = self._fate_of_binding(module, value)
            target = applied.target
            closure = closures.get(target.location) if target.kind == f.LAMBDA else None
            reads, shape_reads = (closure.reads, closure.shape_reads) if closure is not None else ((), ())
            if target.kind == f.NAME and target.ref is not None and not target.ref.is_local:
                nested = self.symbols.functions.get(target.ref.name)
                if nested is not None:
                    reads, shape_reads = nested.free_reads, nested.shape_reads
            made.append(
                Made(applied, module.path, function, fate, reads=reads, in_loop=in_loop, wrappers=wrappers, shape_reads=shape_reads)
            )
        for nested in module.functions:
            if not nested.decorators:
                continue
            parent = nested.qualname.rpartition(".")[0]
            if nested.class_qualname or parent not in self.symbols.functions:
                continue
            for decorator in nested.decorators:
                applied = application(decorator, self.table)
                if applied is not None and applied.target is None:
                    use = next((use for use in self.symbols.functions[parent].locals if use.location == nested.location), None)
                    in_loop = use is not None and use.loop_depth > 0
                    made.append(
                        Made(applied, module.path, parent, _fate(use), nested, nested.free_reads, in_loop, shape_reads=nested.shape_reads)
                    )
        return made

    def _decorated(self, target: f.Value) -> tuple[f.Value, tuple[str, ...]]:
        """What a project decorator applied right there wraps (`checked(self.step)`),
        with the decorators' names: every `return` of the decorator is a function
        nested in it that calls the decorator's first parameter, a wrapper of what it is given."""
        wrappers: list[str] = []
        while target.kind == f.CALL and target.args and target.ref is not None:
            decorator = self.symbols.lookup_function(target.ref)
            if decorator is None or not decorator.parameters or not decorator.returns:
                break
            given = Ref(decorator.parameters[0].name, decorator.qualname)
            for returned in decorator.returns:
                ref = returned.ref if returned.kind == f.NAME else None
                wrapper = self.symbols.functions.get(ref.name) if ref is not None and not ref.is_local else None
                if wrapper is None or wrapper.qualname.rpartition(".")[0] != decorator.qualname:
                    return target, tuple(wrappers)
                calls = self.symbols.modules[self.symbols.path_of[wrapper.qualname]].calls
                if not any(scope == wrapper.qualname and call.ref == given for scope, call in calls):
                    return target, tuple(wrappers)
            wrappers.append(target.ref.dotted if target.ref.is_local else decorator.name)
            target = unwrapped(target.args[0])
        return target, tuple(wrappers)

    def _fate_of_binding(self, module: f.ModuleFacts, value: f.Value) -> tuple[str, bool]:
        """(fate, made in a loop) of a transform's result assigned to a name."""
        for ref in self.symbols.bound_names(module.path, value):
            if ref.is_local and ref.function in self.symbols.functions:
                use = next((use for use in self.symbols.functions[ref.function].locals if use.name == ref.name), None)
                return _fate(use), use is not None and use.loop_depth > 0
        return KEPT, False

    def bound_methods(self, made: Made) -> list[tuple[str, f.FunctionFacts]]:
        """(class, method) for a transform given `obj.method`, one pair per class
        `obj` may hold: for `self.method`, each project subclass that overrides
        the method too (a base class that jits `self.update` for its subclasses)."""
        target = made.application.target
        if made.nested is not None or target is None:
            return []
        found = self.symbols.bound_methods(target)
        owner = target.ref.parent if target.ref is not None else None
        if owner is None or not self.is_self(owner):
            return found
        for cls, method in list(found):
            for sub in sorted(self.symbols.all_subclasses(cls)):
                if self._overrides(sub, cls, method.name):
                    found.append((sub, self.symbols.find_method(sub, method.name)))
        if not found and len(target.ref.attributes) == 1:
            # A hook the base class leaves to its subclasses (`jax.jit(self._eval)`, each subclass's own `_eval`).
            name = target.ref.last
            for cls in self.symbols.instance_classes(owner):
                for sub in sorted(self.symbols.all_subclasses(cls)):
                    method = self.symbols.method(sub, name)
                    if method is not None and method.is_instance_method and not method.is_property:
                        found.append((sub, method))
        return found

    def is_self(self, ref: Ref) -> bool:
        """`ref` is the `self` of the instance method it is read in."""
        function = self.symbols.functions.get(ref.function) if ref.is_local and not ref.attributes else None
        return function is not None and function.is_instance_method and function.self_name == ref.name

    def closed_over(self, made: Made) -> dict[str, set[Chain]]:
        """For a lambda or nested function given to a transform: class -> what it
        reads of the `self` of the method it is made in."""
        found: dict[str, set[Chain]] = defaultdict(set)
        for read in made.reads:
            function = self.symbols.functions.get(read.function)
            if function is not None and function.is_instance_method and function.self_name == read.name and read.attributes:
                found[function.class_qualname].add(read.attributes)
        # `self` may be an instance of a subclass: a hook it calls (`self.evaluate`) is the subclass's override.
        for cls, chains in list(found.items()):
            called = {chain[0] for chain in chains}
            for sub in sorted(self.symbols.all_subclasses(cls)):
                if any(self._overrides(sub, cls, name) for name in called):
                    found[sub] |= chains
        return found

    def handed_to_calls(self, made: Made, cls: str) -> set[Chain]:
        """The attributes of `self` that every call, in the methods of `cls`, of
        the attributes holding the function `made` makes hands to it whole as
        (part of) an argument: `self._f(self.opt)`, or `self._fns["f"](*flags)`
        with `self.inputs` in `flags` and `self.inputs["opt"] = self.opt`. The
        function holds it where `self` stores the transform's result, the
        nested function, or what the method making it returns (`self._fns =
        self._make()`)."""
        holders = self._holders(made, cls)
        handed: set[Chain] | None = None
        for method in self.symbols.methods(cls) if holders else ():
            use = method.parameter_use(method.self_name) if method.is_instance_method else None
            for holder, chains in use.held_calls if use is not None else ():
                if holder[0] in holders:
                    handed = set(chains) if handed is None else handed & set(chains)
        return handed or set()

    def _holders(self, made: Made, cls: str) -> set[str]:
        """The attributes of instances of `cls` that hold the function `made` makes."""
        maker = self.symbols.functions.get(made.function)
        returned = made.fate == KEPT and maker is not None and maker.is_instance_method and any(
            _holds(value, made.application.location) for value in maker.returns
        )
        found = set()
        for method in self.symbols.methods(cls):
            if not method.is_instance_method:
                continue
            for write, _ in self.symbols.writes.get(Ref(method.self_name, method.qualname), ()):
                value = write.value
                if value is None:
                    continue
                if _holds(value, made.application.location):
                    found.add(write.attribute)
                elif value.kind == f.NAME and value.ref is not None and value.ref.function == made.function and (
                    made.nested is not None and value.ref.name == made.nested.name and not value.ref.attributes
                ):
                    found.add(write.attribute)
                elif returned and value.kind == f.CALL and value.ref is not None and value.ref.is_local:
                    if value.ref.attributes == (maker.name,) and self.is_self(value.ref.base):
                        found.add(write.attribute)
        return found

    def _overrides(self, sub: str, cls: str, name: str) -> bool:
        """The subclass has its own instance method `name`, not the one `cls` has."""
        own, base = self.symbols.find_method(sub, name), self.symbols.find_method(cls, name)
        return own is not None and own.is_instance_method and (base is None or own.qualname != base.qualname)

    def callees(self, ref: Ref | None) -> tuple[str, ...]:
        """The project functions a call of `ref` may run: a function, a class's
        `__init__`, a method of an object whose class is known, or the
        `__call__` of such an object."""
        if ref is None:
            return ()
        known = self._callees.get(ref)
        if known is None:
            known = self._callees[ref] = tuple(self._callees_of(ref))
        return known

    def _callees_of(self, ref: Ref) -> list[str]:
        if not ref.is_local:
            canonical = self.symbols.canonical(ref).name
            if canonical in self.symbols.functions:
                return [canonical]
            if canonical in self.symbols.classes:
                method = self.symbols.find_method(canonical, "__init__")
                return [method.qualname] if method is not None else []
            if "()." in canonical:  # `Model(2.0).warm(x)`
                built, _, name = canonical.rpartition("().")
                cls = self.symbols.lookup_class(Ref(built))
                method = self.symbols.find_method(cls, name) if cls is not None else None
                return [method.qualname] if method is not None else []
        found = [(cls, "__call__") for cls in self.symbols.instance_classes(ref)]
        owner = ref.parent
        if owner is not None:
            classes = self.symbols.instance_classes(owner)
            found += [(cls, ref.last) for cls in classes]
            if self.is_self(owner):
                # `self.step()` in a base class runs the subclass's own `step` on its objects.
                found += [(sub, ref.last) for cls in classes for sub in sorted(self.symbols.all_subclasses(cls))]
        methods = (self.symbols.find_method(cls, name) for cls, name in found)
        return list(dict.fromkeys(method.qualname for method in methods if method is not None))

    @cached_property
    def called_repeatedly(self) -> set[str]:
        """The functions the project calls on every turn of a loop: directly, or
        through the functions such a loop calls (a few calls deeper)."""
        calls = self.symbols.calls
        repeated: set[str] = set()
        for module in self.symbols.modules.values():
            for _, ref in module.loop_calls:
                repeated.update(self.callees(ref))
        for _, _, call in calls.where(TREE_MAPS.__contains__):
            if call.args and call.args[0].kind == f.NAME:
                repeated.update(self.callees(call.args[0].ref))  # called once per leaf
        for _, _, call in calls.where(last_named=lambda name: _EVENT_HOOK.search(name) is not None):
            # `window.reg_key_handler(self._on_key)`, `fig.canvas.mpl_connect(event, on_key)`: run on every event.
            for value in (*call.args, *(value for _, value in call.keywords)):
                if value.kind == f.NAME and value.ref is not None:
                    repeated.update(self.callees(value.ref))
        # Code JAX traces runs once per compilation, however often its caller runs.
        repeated = {function for function in repeated if not self.runs_only_while_tracing(function)}
        frontier = set(repeated)
        for _ in range(_CALLS_DEEP):
            frontier = {callee for caller in frontier for ref in calls.made_in(caller) for callee in self.callees(ref)}
            frontier = {callee for callee in frontier - repeated if not self.runs_only_while_tracing(callee)}
            repeated |= frontier
        return repeated

    @cached_property
    def called_in_a_loop(self) -> set[str]:
        """The functions a loop of the project (not of a test) calls directly, on every turn."""
        found: set[str] = set()
        for path, module in self.symbols.modules.items():
            if self.in_test_file(path):
                continue
            for caller, ref in module.loop_calls:
                if not (caller and self.is_test(caller)):
                    found.update(self.callees(ref))
        return found

    @cached_property
    def run_again(self) -> dict[str, str]:
        """The functions that run more than once in a program, each with the
        caller it runs again through ("" for the first): those the project
        calls again and again (`called_repeatedly`, followed a few calls deep),
        those a library offers its users (`offered_to_users`), the helpers these
        call directly, and the methods those call on their own object. A
        library's offer may be a whole run (`train`), so other calls deeper
        are left alone. Code JAX traces runs once per
        compilation, and code that builds or sets up an object once per object:
        neither is followed."""
        def followed(function: str) -> bool:
            name = function.rpartition(".")[2]
            return name not in BUILDING and not sets_up(name) and not self.runs_only_while_tracing(function)

        found = {function: "" for function in self.called_repeatedly if followed(function)}
        offered = [function for function in self.symbols.functions if self.offered_to_users(function) and followed(function)]
        found.update((function, "") for function in offered if function not in found)
        frontier = offered
        for depth in range(_CALLS_DEEP):
            reached = {}
            for caller in frontier:
                for ref in self.symbols.calls.made_in(caller):
                    # Past the first call, only the object's own methods: its API's parts (`self._recycle()`).
                    if depth and not (ref.parent is not None and self.is_self(ref.parent)):
                        continue
                    for callee in self.callees(ref):
                        if callee not in found and callee not in reached and followed(callee):
                            reached[callee] = caller
            found.update(reached)
            frontier = list(reached)
        return found

    def runs_again_through(self, function: str) -> str:
        """The function whose runs make `function` run again: a library's offer
        to its users or a loop's callee, up the calls `run_again` followed."""
        while self.run_again.get(function):
            function = self.run_again[function]
        return function

    @cached_property
    def called(self) -> set[str]:
        """The project functions (and `__init__`s) some call of the project may run."""
        return {callee for ref in self.symbols.calls.callees for callee in self.callees(ref)}

    def method_calls(self, name: str) -> list[tuple[str, Ref]]:
        """Every call of a method named `name`: (the calling function, the call's callee)."""
        known = self._method_calls.get(name)
        if known is None:
            calls = self.symbols.calls.where(last=(name,))
            known = self._method_calls[name] = [(caller, call.ref) for _, caller, call in calls if call.ref.parent is not None]
        return known

    def traced(self, path: str) -> set[str]:
        """The functions of the module that JAX, flax or equinox trace or transform:
        decorated by them, or handed to them (`lax.scan(body, ...)`, `jax.jit(self.step)`)."""
        known = self._traced.get(path)
        if known is None:
            known = self._traced[path] = self._traced_in(self.symbols.modules[path])
        return known

    @cached_property
    def all_traced(self) -> frozenset[str]:
        """The functions some transform of the project traces, in any module
        (`jax.jit(make_train(cfg))` in a script traces the library's `train`)."""
        return frozenset().union(*(self.traced(path) for path in self.symbols.modules))

    def runs_only_while_tracing(self, function: str) -> bool:
        """Code that runs only when JAX traces it, once per compilation: a
        function a transform of the project traces, in any module, or one
        nested in it; but not a public function that only other modules trace
        (`jax.jit(episodic_memory.knn_query)`), which stays its module's API,
        called eagerly by users too."""
        path = self.symbols.path_of.get(function, "")
        if not path or not _within(function, self.all_traced):
            return False
        return not self.public_api(function) or _within(function, self.traced(path))

    @staticmethod
    def in_test_file(path: str) -> bool:
        name = os.path.basename(path)
        return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"

    def in_library(self, path: str) -> bool:
        """A module of the library itself, whose users call what it offers: not
        a test, an example, a benchmark, a script or a notebook, which run once
        as written. Judged by the module's name in its project, not by the
        folders above the project."""
        if path.endswith(".ipynb") or self.in_test_file(path):
            return False
        packages = self.symbols.modules[path].module.split(".")[:-1]
        return not _NOT_LIBRARY_FOLDERS.intersection(packages)

    @cached_property
    def called_by_the_library(self) -> set[str]:
        """The project functions that code of the library itself calls (not its
        tests, examples or scripts, which call what they test or show)."""
        found: set[str] = set()
        for path, module in self.symbols.modules.items():
            if self.in_library(path):
                refs = {
                    call.ref for enclosing, call in module.calls
                    if call.ref is not None and not (enclosing and self.is_test(enclosing))
                }
                for ref in refs:
                    found.update(self.callees(ref))
        return found

    def offered_to_users(self, function: str) -> bool:
        """A function whose runs the library leaves to its users, who call it as
        often as they like: one of its public API (`public_api`) that the
        library does not call itself (where it does, the project's calls tell
        how often it runs)."""
        return function not in self.called_by_the_library and self.public_api(function)

    def public_api(self, function: str) -> bool:
        """A function a library offers its users: public, in a public class, in
        a module of the library (not a test, an example or a script). Its
        module may be private (`jax._src`) and re-exported."""
        facts = self.symbols.functions.get(function)
        path = self.symbols.path_of.get(function)
        if facts is None or path is None or facts.name in ("main", "__main__") or self.is_test(function):
            return False
        if not self.in_library(path):
            return False
        inside = function[len(self.symbols.modules[path].module) + 1 :].split(".")
        # `__call__` and its kin are called by the language on users' behalf (`layer(x)`): public.
        return not any(part.startswith("_") and not (part.startswith("__") and part.endswith("__")) for part in inside)

    def how_tests_run_again(self, function: str) -> str:
        """How the project's tests run `function`, a public function of the
        library, again and again, for a message ("each of the 2 tests that
        call it"); "" when they do not. Only calls a test makes itself count,
        not those in code JAX traces (`jax.jit(loss)` over a helper that calls
        it): in several tests, or in a parametrised one. The library may call
        it too, from code that says nothing of how often its users do: the
        tests are users, and run it eagerly."""
        if not self.public_api(function):
            return ""
        callers = {
            caller for path, caller, _ in self.symbols.calls.where(callees=(function,))
            if caller and self.is_test(caller) and not self.runs_only_while_tracing(caller)
        }
        cases = sorted(
            caller for caller in callers if caller in self.symbols.functions and parametrised(self.symbols.functions[caller])
        )
        if len(callers) > 1:
            return f"each of the {len(callers)} tests that call it"
        if cases:
            return f"each parametrised case of `{self.symbols.short_name(cases[0])}`"
        return ""

    def per_test_case(self, function: str) -> str:
        """How a test suite runs `function` once per test case, for a message
        ("each parametrised case of `test_step`"); "" when it does not: a
        parametrised test, a function-scoped pytest fixture several tests
        take, or a helper of a test file that several tests (or a parametrised
        one) call."""
        facts = self.symbols.functions.get(function)
        if facts is None:
            return ""
        short = self.symbols.short_name(function)
        if self.is_test(function) and parametrised(facts):
            return f"each parametrised case of `{short}`"
        if any(a_fixture(decorator) for decorator in facts.decorators):
            takers = [
                other for other in self.symbols.functions.values()
                if self.is_test(other.qualname) and any(parameter.name == facts.name for parameter in other.parameters)
            ]
            return f"each of the {len(takers)} tests that take the fixture `{facts.name}`" if len(takers) > 1 else ""
        if not self.in_test_file(self.symbols.path_of.get(function, "")):
            return ""
        callers = [caller for _, caller, _ in self.symbols.calls.where(callees=(function,)) if caller and self.is_test(caller)]
        cases = [caller for caller in callers if parametrised(self.symbols.functions[caller])]
        if len(callers) > 1 or cases:
            return f"each of the tests that call `{short}`"
        return ""

    def is_test(self, function: str) -> bool:
        """A test: in a test file, or a test function, a method of a test class, or a helper nested in one."""
        if self.in_test_file(self.symbols.path_of.get(function, "")):
            return True
        parts = self.symbols.short_name(function).split(".")
        return any(part == "test" or part.startswith(("test_", "Test")) for part in parts)

    def _traced_in(self, module: f.ModuleFacts) -> set[str]:
        traced = set()
        for function in module.functions:
            if any(_from_tracing_library(decorator) for decorator in function.decorators):
                traced.add(function.qualname)
        for _, call in module.calls:
            if _from_tracing_library(call):
                for value in (*call.args, *(value for _, value in call.keywords)):
                    if value.kind == f.NAME:
                        traced.update(self.callees(value.ref))
                        bound = self.symbols.bindings.get(self.symbols.canonical(value.ref), ()) if value.ref else ()
                        for binding in bound:  # `train = make_train(cfg)`, then `jax.jit(train)`
                            traced.update(self._returned_functions(binding.value))
                    traced.update(self._returned_functions(value))  # `jax.jit(make_train(cfg))`
        return traced

    def returns_a_function(self, value: f.Value) -> bool:
        """A call of a project function that returns a function: one it defines,
        or a lambda (`make_loss(cfg)`)."""
        factory = self.symbols.lookup_function(value.ref) if value.kind == f.CALL else None
        return factory is not None and (
            bool(self._returned_functions(value)) or any(returned.kind == f.LAMBDA for returned in factory.returns)
        )

    def _returned_functions(self, value: f.Value) -> list[str]:
        """For a call of a project function that returns a function it defines
        (`make_train(cfg)` returning its nested `train`): that function."""
        if value.kind != f.CALL:
            return []
        factory = self.symbols.lookup_function(value.ref)
        if factory is None:
            return []
        return [
            callee
            for returned in factory.returns
            if returned.kind == f.NAME and returned.ref is not None
            for callee in self.callees(returned.ref)
            if callee.startswith(factory.qualname + ".")
        ]


def _holds(value: f.Value, location: f.Location, depth: int = 2) -> bool:
    """The value is the call at `location`, or a list, tuple or dict holding it."""
    if value.location == location and value.kind == f.CALL:
        return True
    if depth and value.kind in (f.LIST, f.TUPLE, f.DICT):
        return any(_holds(inner, location, depth - 1) for inner in (*value.args, *(v for _, v in value.keywords)))
    return False


def _within(function: str, traced: frozenset[str] | set[str]) -> bool:
    """`function` is one of `traced`, or nested in one."""
    parts = function.split(".")
    return any(".".join(parts[:end]) in traced for end in range(len(parts), 0, -1))


# Decorators that run a test once per case: pytest's and absl's.
_PARAMETRISING = ("parametrize", "parameters", "named_parameters", "product", "expand")


def parametrised(function: f.FunctionFacts) -> bool:
    return any(decorator.dotted.rpartition(".")[2] in _PARAMETRISING for decorator in function.decorators)


def a_fixture(decorator: f.Value) -> bool:
    """`@pytest.fixture`, run for each test that takes it (not `scope="module"`)."""
    if decorator.dotted.rpartition(".")[2] != "fixture":
        return False
    scope = next((value for name, value in decorator.keywords if name == "scope"), None)
    return scope is None or scope.literal == "function"


def _from_tracing_library(value: f.Value) -> bool:
    """A transform of jax, flax or equinox that traces what it is given
    (`jax.tree_util.tree_map` calls its function on every call instead)."""
    name = value.dotted
    if name.startswith(TRACING_LIBRARIES) and name.rpartition(".")[2] in TRACING_NAMES:
        return True
    if value.kind == f.CALL and name == PARTIAL and value.args:
        return _from_tracing_library(value.args[0])
    return value.func is not None and _from_tracing_library(value.func)


def _fate(use: f.LocalUse | None) -> str:
    """A local called once, or bound and called on the same turn of a loop, is a throwaway."""
    if use is None or use.escapes:
        return KEPT
    if use.passed:
        return PASSED
    if not use.calls:
        return DROPPED
    if use.calls and all(depth == use.loop_depth for depth in use.calls) and (use.loop_depth or len(use.calls) == 1):
        return ONCE
    return REUSED
