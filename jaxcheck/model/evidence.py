"""Evidence that JAX will go wrong, as the default profile asks for it (SPEC 3, "Profiles").

- *stale* (or, outside jax 0.9 to 0.10 for a value-hashed key, *changed key*): the
  traced code reads state of the static object, and that state changes after
  the object became static, on that object: a write outside construction
  that can run after the first call (in a method of its class: its API), or
  an in-place change of a container it holds; state held by objects in its
  fields counts, reported at the outermost static object;
- *recompiles*: equal objects that hash by identity reach the cache more than
  once: built where they are used, by code that runs again and again (a loop,
  a function the project calls in one, a function a library offers).
"""

from __future__ import annotations

from dataclasses import dataclass

from jaxcheck import facts as f
from jaxcheck.facts import Ref
from jaxcheck.model.functions import BUILDING, a_fixture, parametrised
from jaxcheck.model.jax_api import MUTATORS
from jaxcheck.model.project import Model
from jaxcheck.model.state import Chain, Change, Reads
from jaxcheck.model.static_uses import CALL_SITE, SELF, StaticUse
from jaxcheck.findings import place_named

_NESTING = 3  # how many fields deep nested state is followed


@dataclass(frozen=True)
class Staleness:
    """A change to state the traced code reads."""

    change: Change
    read: Chain  # the state, from the static object: ("solver", "dt")
    holder: str  # the class whose instance is changed (the static one, or one held in its fields)


def later_changes(model: Model, cls: str, reads: Reads, uses: list[StaticUse], depth: int = _NESTING) -> list[Staleness]:
    """The changes, after the object became static, to state of `cls` that
    `reads` reads, directly or through the objects its fields hold."""
    found = [
        Staleness(change, change.path, cls)
        for change in model.state.changes(cls)
        if reads.include(change.path)
        and real_change(model, cls, change)
        and _after_some_use(model, change, uses)
    ]
    changed = {item.read[0] for item in found}
    found += [
        Staleness(change, change.path, cls)
        for change in invited_changes(model, cls)
        if reads.include(change.path) and change.path[0] not in changed
    ]
    if depth:
        for field in model.classes.fields(cls):
            inner_reads = _through(reads, field.name)
            if inner_reads is None:
                continue
            for inner in model.values.held_classes(field):
                for nested in later_changes(model, inner, inner_reads, [], depth - 1):
                    if field.name.startswith("_") and _only_offered(model, nested.change):
                        continue  # users reach no object held in a private field to call its setter
                    found.append(Staleness(nested.change, (field.name, *nested.read), nested.holder))
    return found


def invited_changes(model: Model, cls: str) -> list[Change]:
    """The changes a library invites its users to make: to a public field of a
    public dataclass that is not frozen (its generated `__init__` names the
    field, and nothing stops `obj.field = ...`), a class of neither a test nor
    a private module. They come after any use: users make them."""
    traits = model.classes.traits(cls)
    if traits is None or not traits.mutable or not _public(model, cls) or not built_by_users(model, cls):
        return []
    return [
        Change((field.name,), False, field.path, field.location, "", False, Ref(cls), f"obj.{field.name} = ...", invited=True)
        for field in model.classes.fields(cls)
        if field.declared and not field.name.startswith("_")
    ]


def _only_offered(model: Model, change: Change) -> bool:
    """A change users may make but the project never does: a public field of a
    library's dataclass, or a setter method the project never calls."""
    return change.invited or (change.inside and change.function not in model.functions.called)


def built_by_users(model: Model, cls: str) -> bool:
    """A class a library's users build and may change: public (its module may
    be private, `pkg._src.env`, and re-exported), in a module of the library,
    not in a test, an example or a script, which run as written."""
    path = model.symbols.path_of[cls]
    if not model.functions.in_library(path):
        return False
    module = model.symbols.modules[path].module
    inside = cls[len(module) + 1 :].split(".")
    if any(part.startswith("_") for part in inside):
        return False
    # A class defined in a function is made anew by each call: none of the library's users builds it.
    if not all(".".join([module, *inside[:end]]) in model.symbols.classes for end in range(1, len(inside))):
        return False
    return not _a_part_of_other_objects(model, cls) and not _built_by_a_program(model, cls)


def _built_by_a_program(model: Model, cls: str) -> bool:
    """Built only by a program's `main()`: an application's object (an editor,
    a runner), which the program builds once, not a library's users."""
    sites = model.values.constructions(cls)
    return bool(sites) and all(
        _enclosing(model, path, call.location).rpartition(".")[2] in ("main", "_main", "run_main") for path, call in sites
    )


def _a_part_of_other_objects(model: Model, cls: str) -> bool:
    """Built by the library only while it builds objects of other classes (a
    planner made in an environment's `__init__`): a part of them, which users
    do not build or set themselves. Not when every such construction only
    hands on what users chose (`_hands_on`): there the object is the one
    holder of their configuration, built as they would build it. A copy an
    object makes of itself (`config.with_param(...)`) is built from one that
    exists: whoever built the first decides."""
    handed_on, built = True, False
    for path, call in model.values.constructions(cls):
        function = _enclosing(model, path, call.location)
        owner, _, method = function.rpartition(".")
        facts = model.symbols.functions.get(function)
        if owner in model.symbols.all_subclasses(cls) | {cls} and facts is not None and facts.is_instance_method:
            continue
        if method not in ("__init__", "__post_init__", "setup") or owner not in model.symbols.classes or owner == cls:
            return False
        built = True
        handed_on = handed_on and _hands_on(model, cls, function, call)
    return built and not handed_on


def _hands_on(model: Model, cls: str, function: str, call: f.Value) -> bool:
    """The construction of `cls` in `function` (an owner's `__init__`) gives it
    nothing of the owner's own: each argument is a constant, or a parameter of
    `function` used for nothing but building `cls` (`Step(task, lopt, n)` in a
    wrapper's `__init__`, `Viz()` leaving its parameters at their defaults).
    The owner keeps no copy of that state and derives none of it: users who
    configure the object configure it alone. A class whose `__init__` takes no
    parameters is configured by nobody."""
    init = model.symbols.find_method(cls, "__init__")
    facts = model.symbols.functions.get(function)
    if init is None or len(init.parameters) < 2 or facts is None:
        return False
    parameters = {parameter.name for parameter in facts.parameters[1:]}
    uses = {use.name: use for use in facts.uses}
    for key, argument in (*((None, arg) for arg in call.args), *call.keywords):
        if key == "**":
            return False
        if argument.kind == f.CONSTANT:
            continue
        ref = argument.ref
        if argument.kind != f.NAME or ref is None or not ref.is_local or ref.attributes or ref.function != function:
            return False
        use = uses.get(ref.name)
        if ref.name not in parameters or use is None or use.opaque or use.reads:
            return False
        if not use.passed_to or any(target is None or target.name != cls for target in use.passed_to):
            return False
    return True


def public_state_read(model: Model, cls: str, reads: Reads) -> list[str]:
    """The public attributes of `cls` (set while building, or declared) that
    `reads` reads, directly or through the methods and properties it calls:
    the state a user may set (`env.size = 8`), in the order declared."""
    read = reads.attributes
    names = []
    for field in model.classes.fields(cls):
        if field.name in read and not field.name.startswith("_") and field.name not in names:
            names.append(field.name)
    return names


def real_change(model: Model, cls: str, change: Change) -> bool:
    """A mutating call changes something only on a container or an array
    (`self.opt.update(...)` is a method of whatever `opt` is); a change inside a
    method of the class counts when that method can run after the object is
    in use (see `runs_after_setup`), and is not one Python calls to look at
    the object's value (a memo)."""
    if change.method and not model.values.container_kind(cls, change.path):
        return False
    if change.function.rpartition(".")[2] in _OBSERVERS:
        return False
    return not change.inside or runs_after_setup(model, cls, change.function)


# Methods Python calls to look at an object's value: a write in them is a
# cache of that value (`self._hash = hash(...)` in `__hash__`), not a change.
_OBSERVERS = frozenset(
    {"__hash__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__repr__", "__str__", "__format__",
     "__bool__", "__len__"}
)


def runs_after_setup(model: Model, cls: str, method: str) -> bool:
    """A method of `cls` the project calls outside the building of objects (any
    class's `__init__`, `setup` and their helpers, a classmethod factory), or,
    never called in the project, one a library offers its users: public, on a
    public class of a public module."""
    function = model.symbols.functions.get(method)
    if function is None:
        return True
    # Calls on an object of the class; and on one whose class is not known,
    # unless the name is one every container has (`update`, `append`).
    calls = []
    for caller, ref in model.functions.method_calls(function.name):
        classes = model.symbols.instance_classes(ref.parent)
        if any(cls in model.symbols.mro(other) for other in classes) or not classes and function.name not in MUTATORS:
            calls.append(caller)
    if not calls:
        # A container's name is called all over a project on receivers of no
        # known class (`parts[key].append(...)`): whether the project calls
        # this one, and while building, cannot be told.
        return function.name not in MUTATORS and _public(model, cls) and not function.name.startswith("_")
    return any(not _building(model, caller) for caller in calls)


def _public(model: Model, cls: str) -> bool:
    """A class users of a library reach: no name on its way starts with `_`."""
    module = model.symbols.module_of(cls).module
    return not any(part.startswith("_") for part in cls.split(".") if part != "__init__") and bool(module)


def _building(model: Model, caller: str) -> bool:
    """Code that builds an object: a construction method or its helper, or a classmethod/staticmethod factory."""
    function = model.symbols.functions.get(caller)
    if function is None or not function.class_qualname:
        return False
    if not function.is_instance_method:
        return True
    return function.name in model.classes.construction_methods(function.class_qualname)


def _through(reads: Reads, name: str) -> Reads | None:
    """What is read of the object in field `name`: the rest of the chains through it."""
    if reads.opaque:
        return Reads(opaque=True)
    rest = {chain[1:] for chain in reads.chains if chain[0] == name}
    if not rest:
        return None
    if () in rest:  # the object itself is read, passed on or called: all of it counts
        return Reads(opaque=True)
    return Reads(frozenset(rest))


def _after_some_use(model: Model, change: Change, uses: list[StaticUse]) -> bool:
    """The change can run after one of the uses made the object static: it is
    in a method of the class (its API), or outside, and neither before the
    use in the same function nor made on another object than the one used."""
    if change.inside or change.invited or not uses:
        return True
    return any(not _precedes(change, use) and not different_objects(model, change.target, use) for use in uses)


def _precedes(change: Change, use: StaticUse) -> bool:
    """The change comes before the static use in the same function: it cannot make that call stale."""
    return change.file == use.path and change.function == use.enclosing and change.location < use.location


def different_objects(model: Model, target: Ref, use: StaticUse) -> bool:
    """The change is made on a name bound to a new object, and the static use
    passes another name bound to a new object: two objects, not one."""
    value = use.outermost.value if use.via != CALL_SITE else use.value
    if value is None or value.kind != f.NAME or value.ref is None:
        return False
    return distinct(model, target, value.ref)


def distinct(model: Model, one: Ref, other: Ref) -> bool:
    """Two names each bound only to objects built right there (`a = C()`, `b = C()`)."""
    one, other = model.symbols.canonical(one), model.symbols.canonical(other)
    if one == other or one.attributes or other.attributes:
        return False
    return _fresh(model, one) and _fresh(model, other)


def _fresh(model: Model, ref: Ref) -> bool:
    bindings = model.symbols.bindings.get(ref, ())
    return bool(bindings) and all(model.symbols.constructed_class(binding.value) for binding in bindings)


def built_repeatedly(model: Model, cls: str, uses: list[StaticUse]) -> str:
    """How new, equal objects of `cls` reach a static position again and again,
    for a message ("built at every call of `fit` (a.py:12)"); "" when nothing
    shows they do. An object built where it is used (at the call site, or
    bound to a local of the function that uses it) is a new key each time
    that function runs: in a loop, in code the project runs again and again,
    or in a function a library offers its users."""
    for use in uses:
        for path, function, call in _built_for(model, cls, use.outermost):
            if function and model.functions.runs_only_while_tracing(function):
                continue  # runs when JAX traces it, once per compilation
            if runs_repeatedly(model, path, call.location):
                return f"built in code that runs again and again ({place_named(path, call.location.line, call.location.column)})"
            if function and _entry_point(model, function):
                return f"built at every call of `{model.symbols.short_name(function)}` ({place_named(path, call.location.line, call.location.column)})"
            if function and (cases := _per_test_case(model, function, call)):
                return f"built anew for {cases} ({place_named(path, call.location.line, call.location.column)})"
    if any(use.outermost.via == SELF for use in uses):
        # A jitted method's cache is the class's: any new object of it, wherever it is built, traces again.
        return _built_on_every_turn(model, cls)
    return ""


def _per_test_case(model: Model, function: str, call: f.Value) -> str:
    """How a test suite builds equal objects with `call` once per test case
    (`Functions.per_test_case`): not from the case's own parameters
    (`Env(num_agents=n)` for each `n` builds different objects, each
    compiled once anyway), nor in a helper that builds one of several
    classes (`get_workload(name)`)."""
    facts = model.symbols.functions.get(function)
    if facts is None or _builds_one_of_several(model, function):
        return ""
    parameters = {parameter.name for parameter in facts.parameters}
    if model.functions.is_test(function) and _reads_names(call, parameters, function):
        if not _same_for_several_cases(model, facts, call):
            return ""
    return model.functions.per_test_case(function)


def _same_for_several_cases(model: Model, helper: f.FunctionFacts, call: f.Value) -> bool:
    """A helper of a test file (not a test itself) that builds from its
    parameters, given the same values for them by several cases: a
    parametrised test that passes each of them a constant or leaves it at its
    default (`create_env(key)` for every case, the flags read left alone), or
    two calls from tests that pass the same constants. A parameter a
    parametrised test does not vary is not the case's own; helpers called
    with different constants (`make_env(3)`, `make_env(5)`) build different
    objects on purpose."""
    functions = model.functions
    if parametrised(helper) or any(a_fixture(decorator) for decorator in helper.decorators):
        return False  # a parametrised test or a fixture: its parameters are the case's own
    read = sorted(_local_names(call, helper.qualname) & {parameter.name for parameter in helper.parameters})
    seen: set[tuple] = set()
    for _, caller, given in model.symbols.calls.where(callees=(helper.qualname,)):
        if not caller or not functions.is_test(caller):
            continue
        passed = _constants_passed(helper, given, read)
        if passed is None:
            continue
        caller_facts = model.symbols.functions.get(caller)
        if passed in seen or (caller_facts is not None and parametrised(caller_facts)):
            return True
        seen.add(passed)
    return False


def _constants_passed(helper: f.FunctionFacts, call: f.Value, names: list[str]) -> tuple | None:
    """What a call of `helper` gives each of its parameters `names`: a
    constant, or its default (None when one is given something else)."""
    given: dict[str, f.Value] = {}
    positional = helper.positional
    for index, argument in enumerate(call.args):
        if argument.kind == f.OTHER and argument.literal == "*" or index >= len(positional):
            return None
        given[positional[index]] = argument
    for key, argument in call.keywords:
        if key == "**":
            return None
        given[key] = argument
    found = []
    for name in names:
        argument = given.get(name)
        if argument is None:
            found.append((name, "<default>"))
        elif argument.kind == f.CONSTANT:
            found.append((name, repr(argument.literal)))
        else:
            return None
    return tuple(found)


def _local_names(value: f.Value, function: str) -> set[str]:
    """The locals of `function` that `value` reads, in its arguments at any depth."""
    if value.kind == f.NAME and value.ref is not None and value.ref.is_local:
        return {value.ref.name} if value.ref.function == function else set()
    found: set[str] = set()
    for inner in (*value.args, *(item for _, item in value.keywords)):
        found |= _local_names(inner, function)
    return found


def _builds_one_of_several(model: Model, function: str) -> bool:
    """A function that builds objects of three classes or more (`make(name)` of
    a registry): which one a run builds is chosen by its arguments."""
    return len(model.values.classes_built_in(function)) > 2


def _reads_names(value: f.Value, names: set[str], function: str) -> bool:
    """`value` reads one of the locals `names` of `function`, in its arguments at any depth."""
    if value.kind == f.NAME and value.ref is not None and value.ref.is_local:
        return value.ref.function == function and value.ref.name in names
    return any(_reads_names(inner, names, function) for inner in (*value.args, *(item for _, item in value.keywords)))


def _built_on_every_turn(model: Model, cls: str) -> str:
    """Where a loop (not a test's) builds a new object of `cls` on every turn:
    in its body, or in a function it calls (`for re in stages:
    train_stage(...)`, which builds a sampler); not in the building of other
    objects, nor in a function that builds one of several classes (`make(name)`
    of a registry), whose runs need not build this one. Or where a test suite
    builds one per test case (`per_test_case`)."""
    for path, call in (*model.values.constructions(cls), *model.values.dispatched_constructions(cls)):
        function = _enclosing(model, path, call.location)
        if function and (cases := _per_test_case(model, function, call)):
            return f"built anew for {cases} ({place_named(path, call.location.line, call.location.column)})"
        if model.functions.in_test_file(path):
            continue
        if call.location in model.symbols.modules[path].repeated and not (function and model.functions.is_test(function)):
            return f"built in a loop ({place_named(path, call.location.line, call.location.column)})"
        if not function or function.rpartition(".")[2] in BUILDING or model.functions.runs_only_while_tracing(function):
            continue
        if function in model.functions.called_in_a_loop and not _builds_one_of_several(model, function):
            return f"built on every turn of a loop that calls `{model.symbols.short_name(function)}` ({place_named(path, call.location.line, call.location.column)})"
    return ""


def instances_built_repeatedly(model: Model, cls: str) -> str:
    """Where objects of `cls` are built again and again, for a message ("built
    in code that runs again and again (a.py:42)"); "" when nowhere is. A bound
    method of `self` taken in one of its methods is a new key for each of them."""
    for path, call in model.values.constructions(cls):
        function = _enclosing(model, path, call.location)
        if function and (model.functions.runs_only_while_tracing(function) or model.functions.is_test(function)):
            continue
        if model.functions.in_test_file(path):
            continue
        if runs_repeatedly(model, path, call.location):
            return f"built in code that runs again and again ({place_named(path, call.location.line, call.location.column)})"
    return ""


def construction_runs_again(model: Model, path: str, call: f.Value) -> str:
    """How the code that makes a call runs again and again, for a message
    ("built at every call of `make_cost` (a.py:12)"); "" when nothing shows it
    does: a call in a loop, in a function the project calls in one, or in one a
    library offers its users (or a function they reach through it). Not at
    module level, in a test, in code JAX traces, or while building or setting up
    another object: those run once (per object)."""
    function = _enclosing(model, path, call.location)
    functions = model.functions
    if not function or functions.is_test(function) or functions.runs_only_while_tracing(function):
        return ""
    where = place_named(path, call.location.line, call.location.column)
    if runs_repeatedly(model, path, call.location):
        return f"built in code that runs again and again ({where})"
    if function in functions.run_again:
        return f"built at every call of `{model.symbols.short_name(functions.runs_again_through(function))}` ({where})"
    return ""


def bound_object_changes(model: Model, method: Ref, use: StaticUse) -> list[Staleness]:
    """A bound method given to a static object (`Cfg(fn=scaler.apply)`) compares
    by the identity of the object it is bound to, whatever that object holds:
    the changes to that object, after the use, to state the method reads."""
    owner = method.parent
    if owner is None:
        return []
    found = []
    for cls in model.symbols.instance_classes(owner):
        function = model.symbols.find_method(cls, method.last)
        if function is None or not function.is_instance_method or function.is_property:
            continue  # a property gives its value, compared as such
        reads = model.state.method_reads(cls, function)
        for change in model.state.changes(cls):
            if not reads.include(change.path) or not real_change(model, cls, change):
                continue
            if not change.inside and distinct(model, change.target, owner):
                continue  # another object of the class
            if change.inside or not _precedes(change, use):
                found.append(Staleness(change, change.path, cls))
    return found


def class_state_change(model: Model, function: f.FunctionFacts) -> tuple[f.AttributeWrite, str] | None:
    """For a classmethod whose `cls` is static: a class attribute it reads that
    the project reassigns (`Model.scale = 3.0`, or `cls.scale = ...` in a
    classmethod), as (the write, its file). A class hashes by identity, so the
    compiled code keeps the value it was traced with."""
    reads = model.state.parameter_reads(function, function.parameters[0].name).attributes
    owner = function.class_qualname
    written = [Ref(owner)] + [
        Ref(method.parameters[0].name, method.qualname)
        for method in model.symbols.methods(owner)
        if method.is_classmethod
    ]
    changes = (
        (write, path) for ref in written for write, path in model.symbols.writes.get(ref, ()) if write.attribute in reads
    )
    return next(changes, None)


def _built_for(model: Model, cls: str, use: StaticUse) -> list[tuple[str, str, f.Value]]:
    """The constructions of `cls` whose object the use makes static, each as
    (file, function it is in, the call): at the call site, through a local
    of the same function, or, for a static `self`, the object a method is
    called on in the function that builds it."""
    symbols = model.symbols
    found = []
    if use.via == CALL_SITE and use.value is not None:
        value = use.value
        if value.kind == f.CALL and _builds(model, value, cls):
            found.append((use.path, use.enclosing, value))
        elif value.kind == f.NAME and value.ref is not None and (owner := value.ref.parent if use.method else value.ref) is not None and not owner.attributes:
            # A local of the function that uses it, or a name of the module the use is in
            # (for a bound method, its object's name).
            ref = symbols.canonical(owner)
            function = use.enclosing if ref.is_local else ""
            if ref.is_local or symbols.modules[use.path].module == ref.name.rpartition(".")[0]:
                found += [
                    (use.path, function, binding.value)
                    for binding in symbols.bindings.get(ref, ())
                    if _builds(model, binding.value, cls)
                ]
    elif use.via == SELF:
        method = model.symbols.functions[use.function]
        for caller, ref in model.functions.method_calls(method.name):
            owner = ref.parent
            if owner is None or not owner.is_local or owner.function != caller or len(owner.attributes) > 1:
                continue
            # `obj = C(...)`, or `self.obj = C(...)`, then `obj.method(...)` in the same function.
            if owner.attributes:
                values = [
                    write.value
                    for write, _ in symbols.writes.get(owner.base, ())
                    if write.attribute == owner.attributes[0] and write.function == caller and write.value is not None
                ]
            else:
                values = [binding.value for binding in symbols.bindings.get(owner, ())]
            for value in values:
                if _builds(model, value, cls):
                    found.append((symbols.path_of.get(caller, ""), caller, value))
    return [item for item in found if item[0]]


def _builds(model: Model, value: f.Value, cls: str) -> bool:
    """`value` builds an object of `cls`: `Cls(...)`, or a registry's `make("name", ...)` that selects it."""
    return model.symbols.constructed_class(value) == cls or model.values.dispatched_class(value) == cls


def _entry_point(model: Model, function: str) -> bool:
    """A function a library offers its users, who call it as often as they
    like: public, in a public class and module, not a test, and not called
    by the project itself (a script's functions are, once)."""
    facts = model.symbols.functions.get(function)
    if facts is None or facts.name in ("main", "__main__") or model.functions.is_test(function):
        return False
    parts = function.split(".")
    if any(part.startswith("_") and part != "__init__" for part in parts):
        return False
    return function not in model.functions.called





def runs_repeatedly(model: Model, path: str, location: f.Location) -> bool:
    """A call made in a loop, or in a function the project calls again and again."""
    module = model.symbols.modules[path]
    if location in module.repeated:
        return True
    function = _enclosing(model, path, location)
    return bool(function) and function in model.functions.called_repeatedly


def _enclosing(model: Model, path: str, location: f.Location) -> str:
    module = model.symbols.modules[path]
    for function, call in module.calls:
        if call.location == location:
            return function
    for binding in module.bindings:
        if binding.value.location == location:
            return binding.function
    return ""
