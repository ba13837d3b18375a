"""JAX2xx: transforms applied to methods and to closures over `self`.

A jitted function sees its arguments as arrays or pytrees of arrays, or as
static values. `self` of a plain class is neither unless it is made static,
so `@jax.jit` on such a method fails the moment it is called. Reached any
other way (a bound method, a lambda reading `self.x`), the object's state is
read once, while tracing, and compiled in as constants: the jitted function
goes stale when that state is assigned again.
"""

from __future__ import annotations

from jaxcheck import facts as f
from jaxcheck.model.evidence import built_by_users, distinct, later_changes
from jaxcheck.model.evidence import public_state_read as public_names
from jaxcheck.model.functions import PASSED, REUSED, THROWAWAY, Made
from jaxcheck.model.jax_api import GRAPH_NODES
from jaxcheck.model.project import Model
from jaxcheck.model.state import Chain, Change, Reads
from jaxcheck.model.transforms import application
from jaxcheck.rules.base import Rule, related_change
from jaxcheck.rules.static_args import instance_name


class JitMethodSelfNotStatic(Rule):
    """`@jax.jit` sits directly on a method of a class that is not a pytree, and
    `self` is not static: `jax.jit` must trace `self` as an array, cannot, and
    the first call raises `TypeError`.

    ## What it does

    Flags a `jax.jit` or `pjit` decorator, in any spelling (`@jax.jit`, `@jit`
    imported, `@jax.jit(...)`, `@partial(jax.jit, ...)`,
    `@functools.partial(jit, ...)`), on an instance method of a class that

    - jaxcheck can judge: its bases and decorators are all known (plain
      classes, and subclasses of plain project classes), in any module of the
      project;
    - is not a registered pytree (`equinox.Module`, `flax.struct.dataclass`,
      `flax.struct.PyTreeNode`, `@jax.tree_util.register_pytree_node_class`,
      `@jax.tree_util.register_dataclass`, `chex.dataclass`, `NamedTuple`, or a
      subclass of one of these), is not abstract, and has no subclass that is
      one (the `self` of its methods may be such a subclass's);

    when the decorator leaves `self` traced: no `static_argnums` naming position
    0 and no `static_argnames` naming `self`. Static arguments other than
    `self` (`static_argnums=1`, `static_argnames="y"`) do not help and are
    still flagged.

    Reported on the decorator line. Any spelling counts: `@jit` imported under
    another name (`from jax import jit as J`), `@pjit`, `@nnx.jit` (on a class
    that is not an `nnx.Module`: flax raises the same error), and a negative
    `static_argnums` that names `self` (`-2` for `(self, y)`) makes `self` static.

    ## Why is this bad?

    `jax.jit` looks at every argument that is not static and needs it to be an
    array, a Python scalar, or a pytree of those. `self` is the first argument
    of the method, and an instance of a plain class is none of these, so JAX
    cannot build an abstract value for it. Checked on jax 0.10.2, CPU, for
    every spelling above:

        TypeError: Error interpreting argument to <function CustomClass.calc at
        0x...> as an abstract array. The problematic value is of type <class
        '__main__.CustomClass'> and was passed to the function at path self.

    It is loud, but only at run time. The quick fixes have traps of their own:
    `jax.jit(obj.method)` and `@partial(jax.jit, static_argnums=0)` on a
    mutable class both compile the object's state into the function and ignore
    later changes (JAX201, JAX101/JAX102).

    ## Example

    ```python
    import jax.numpy as jnp
    from jax import jit

    class CustomClass:
        def __init__(self, x: jnp.ndarray, mul: bool):
            self.x = x
            self.mul = mul

        @jit  # JAX202 is reported on this line
        def calc(self, y):
            if self.mul:
                return self.x * y
            return y

    c = CustomClass(2, True)
    print(c.calc(3))  # TypeError: Error interpreting argument to <function CustomClass.calc ...>
    ```

    ## Use instead

    Register the class as a pytree: the arrays are children, traced like any
    array argument; the Python values that steer the trace (here `mul`, read by
    an `if`) go in `aux_data`, which must be hashable and compared by value (a
    bool, an int, a tuple of them; never an array or a list).

    ```python
    import jax
    import jax.numpy as jnp
    from jax import jit

    @jax.tree_util.register_pytree_node_class
    class CustomClass:
        def __init__(self, x: jnp.ndarray, mul: bool):
            self.x = x
            self.mul = mul

        @jit
        def calc(self, y):
            if self.mul:
                return self.x * y
            return y

        def tree_flatten(self):
            return (self.x,), self.mul  # children, aux_data

        @classmethod
        def tree_unflatten(cls, aux_data, children):
            return cls(*children, aux_data)

    c = CustomClass(2, True)
    print(c.calc(3))  # 6
    c = CustomClass(c.x, False)  # build a new object rather than set c.mul
    print(c.calc(3))  # 3
    ```

    `aux_data` is part of the tree structure and so of `jit`'s cache key: a
    new `mul` traces again. Other fixes:

    - jit a module-level function that takes the arrays it needs, and call it
      from the method (`return _calc(self.x, self.mul, y)` with `mul` static);
    - make the class an `equinox.Module` or a `flax.struct.dataclass`
      (`mul: bool = struct.field(pytree_node=False)`);
    - make `self` static (`@partial(jax.jit, static_argnums=0)`) only on a
      class that is immutable and hashes by value (a frozen dataclass), or
      JAX101/JAX102 apply.

    ## Fix

    No automatic fix: registering the class as a pytree, or making `self` static
    on a frozen, value-hashed class, each changes the class's design.

    ## Options

    JAX202 is reported under both profiles: the call raises `TypeError`.
    Transforms added by `extra-transforms` are not checked here: jaxcheck does
    not know whether they trace `self`. No option is specific to JAX202.

    ## Known problems

    Not flagged, and fine:

    - `@staticmethod` methods (no `self`); module-level functions, even with a
      first parameter named `self`;
    - methods of pytree classes (listed above) under `@jax.jit`;
    - `self` made static (`static_argnums=0`, `static_argnames="self"`):
      whether that is sound is for JAX101-JAX106;
    - `eqx.filter_jit` on a method: it treats `self` as static when it holds no
      arrays (then JAX101 may apply);
    - `nnx.jit` on methods of an `nnx.Module` (a graph node it splits), and
      `@jax.jit` on methods of classes jaxcheck cannot judge (an unknown base,
      an unknown decorator or metaclass): it never guesses;
    - methods of abstract classes and of classes with a pytree subclass: the
      `self` they get may be a pytree. If it never is, JAX raises just the
      same.

    Not flagged, but JAX raises just the same (checked on jax 0.10.2 and flax
    0.12.8): `@classmethod` over `@jax.jit` (the class itself is traced as
    `cls`; use `@partial(jax.jit, static_argnums=0)` under `@classmethod`),
    and `@jax.jit` on a method of a `flax.linen.Module` subclass. A
    `flax.nnx.Module` is a pytree in that flax version, so `@jax.jit` on its
    methods works.

    Should a flagged method never be called (dead code), put `# noqa: JAX202`
    on the decorator line, or set `ignore = ["JAX202"]` or
    `per-file-ignores = { "tests/*" = ["JAX202"] }` in `[tool.jaxcheck]`.

    ## References

    - JAX FAQ, "How to use `jit` with methods?": `@jit` on a method fails
      because `self` is not a valid JAX type; Strategy 1, a jitted helper
      function; Strategy 2, marking `self` static; Strategy 3, registering the
      class as a pytree. https://docs.jax.dev/en/latest/faq.html
    - `jax.tree_util.register_pytree_node_class`: `aux_data` must be hashable.
      https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_pytree_node_class.html
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"):
      a class passed to a jitted function must be registered as a pytree or
      marked static.
    - StackOverflow, "Using Jax Jit on a method as decorator versus applying jit
      function directly".
    """

    code = "JAX202"
    name = "jit-method-self-not-static"
    summary = "a jit decorator on a method of a class that is not a pytree, with `self` not static"
    facts = ("self-not-static",)

    def check(self, model: Model):
        symbols = model.symbols
        for function in symbols.functions.values():
            if not function.is_instance_method:
                continue
            cls = function.class_qualname
            # A class jaxcheck cannot judge may be a pytree through a base it cannot see;
            # the `self` of an abstract class's method is a subclass's, which may be one.
            if symbols.is_pytree(cls) or model.classes.traits(cls) is None or symbols.is_abstract(cls):
                continue
            if symbols.inherits(cls, GRAPH_NODES):
                continue  # an `nnx.Module` is a graph node `nnx.jit` splits, and a pytree for `jax.jit`
            if any(symbols.is_pytree(sub) for sub in symbols.all_subclasses(cls)):
                continue
            for decorator in function.decorators:
                applied = application(decorator, model.options.table)
                if applied is None or applied.spec is None or applied.target is not None:
                    continue
                spec = applied.spec
                if not spec.transform.traces_self:
                    continue
                count = len(function.positional)
                if function.self_name in spec.argnames or any(n == 0 or n + count == 0 for n in spec.argnums):
                    continue
                name = symbols.short_name(function.qualname)
                yield self.finding(
                    symbols.path_of[function.qualname],
                    spec.location,
                    f"`{spec.transform.name}` on the method `{name}` traces `self`, but `{cls.rpartition('.')[2]}` "
                    "is not a pytree and `self` is not static: JAX raises `TypeError: Error interpreting argument "
                    "... as an abstract array` when it is called",
                    "Jit a function that takes the arrays it needs, register the class as a pytree "
                    "(`jax.tree_util.register_pytree_node_class`), or make `self` static "
                    "(`@partial(jax.jit, static_argnums=0)`) on a frozen class that hashes by value",
                )


def _holds_mutable_state(model: Model, cls: str) -> bool:
    """A class jaxcheck can judge, and mutable. Being a pytree does not help: a
    transform traces the arguments it is given, not the `self` a bound method
    or a closure holds, so that is compiled in like any other constant."""
    traits = model.classes.traits(cls)
    return traits is not None and traits.mutable


def _never_stale(made: Made) -> bool:
    """Made anew and used once: nothing is kept to go stale (JAX401 speaks of it).
    equinox's transforms hash the function they are given, and two bound
    methods of one object are equal: a new `filter_jit(obj.method)` finds the
    old cache, and goes stale like a kept one."""
    return made.fate in THROWAWAY and not made.transform.all_static


def _changed_text(changed: list[Change]) -> str:
    change = changed[0]
    more = len(changed) - 1
    return change.shown + (
        f" (and {more} more place{'s' if more > 1 else ''})" if more else ""
    )


def _changes(model: Model, cls: str, reads: Reads, made: Made, obj: f.Ref | None) -> list[Change]:
    """The changes, after the function is made, to what it reads of the object:
    not earlier in the same function, not on another object, and for one held
    in a local for the length of a call (used more than once, or handed to a
    call), only in that call."""
    found = []
    for item in later_changes(model, cls, reads, []):
        change = item.change
        if item.holder == cls and _set_up_before(model, change, made, obj):
            continue
        # Earlier in the code that makes the jitted function: traced with it, and
        # a later run of that code writes again and makes a new one.
        if item.holder == cls and not change.invited and _written_before_making(model, cls, change, made):
            continue
        if item.holder == cls and change.inside and _overridden(model, cls, change.function):
            continue  # a base class's method that `cls` replaces never runs on its objects
        if item.holder == cls and not change.inside and not change.invited:
            if obj is not None and distinct(model, change.target, obj):
                continue
        if made.fate in (REUSED, PASSED) and not (
            change.file == made.path and change.function == made.function and made.application.location < change.location
        ):
            continue
        found.append(change)
    return sorted(found, key=lambda change: (change.file, change.location))


def _latent(model: Model, cls: str, reads: Reads, made: Made, owner: f.Ref) -> str:
    """The public state of `self` a kept jit of its own method reads, named for a
    message ("`lr`, `steps`"), when the class is one a library's users build
    and may change; "" otherwise. `self.method`, or the method of an object
    the caller hands in (`self._model = model`, then
    `jax.jit(self._model.evaluate_batch)`): another object's class may be a
    part of it that users do not reach."""
    if made.fate in THROWAWAY or not (owner.dotted == "self" or _handed_in(model, owner)):
        return ""
    if not built_by_users(model, cls):
        return ""
    names = public_names(model, cls, reads)
    return ", ".join(f"`{name}`" for name in names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _handed_in(model: Model, owner: f.Ref) -> bool:
    """`self.<attribute>`, set in `__init__` from one of its parameters: an
    object the caller built and owns."""
    function = model.symbols.functions.get(owner.function) if owner.is_local else None
    if function is None or len(owner.attributes) != 1 or not model.functions.is_self(owner.base):
        return False
    return any(
        field.name == owner.attributes[0] and field.value is not None and model.values.init_parameter(field.value) is not None
        for field in model.classes.fields(function.class_qualname)
    )


def _overridden(model: Model, cls: str, method: str) -> bool:
    """`method`, of a base class, is replaced by one of `cls` (or a class between)."""
    name = method.rpartition(".")[2]
    own = model.symbols.find_method(cls, name)
    return own is not None and own.qualname != method


def _written_before_making(model: Model, cls: str, change: Change, made: Made) -> bool:
    """The change comes first in the code that makes the jitted function: in
    the same function, or in a method before a call on the same object that
    runs it (`self.pm = ...`, then `self.build_constraints(...)`, which jits).
    Each run writes, then makes a new function that traces the new value. A
    write in a property's setter is made where the property is assigned (in
    the methods `cls` runs: not those of a base class it replaces)."""
    function = model.symbols.functions.get(change.function)
    if change.inside and function is not None and any(d.dotted.endswith(".setter") for d in function.decorators):
        runs = [
            (write.function, path, write.location, write.target)
            for write, path in model.symbols.writes_of(function.name)
            if model.functions.is_self(write.target) and not _overridden(model, cls, write.function)
        ]
        return bool(runs) and all(_comes_first(model, *run, made) for run in runs)
    return _comes_first(model, change.function, change.file, change.location, change.target if change.inside else None, made)


def _comes_first(model: Model, function: str, path: str, location: f.Location, target: f.Ref | None, made: Made) -> bool:
    """A write at `location` in `function` precedes the making of the jitted
    function there, or a call on `target` (its method's own object) that runs it."""
    if function == made.function:
        return path == made.path and location < made.application.location
    module = model.symbols.modules.get(path)
    if target is None or module is None:
        return False  # only a method's own object is known to be the one it then calls
    callees = {
        callee
        for enclosing, call in module.calls
        if enclosing == function and location < call.location and call.ref is not None and call.ref.parent == target
        for callee in model.functions.callees(call.ref)
    }
    for _ in range(2):  # and what those call
        if made.function in callees:
            return True
        callees |= {callee for caller in callees for ref in model.symbols.calls.made_in(caller) for callee in model.functions.callees(ref)}
    return made.function in callees


def _set_up_before(model: Model, change: Change, made: Made, obj: f.Ref | None) -> bool:
    """A method that sets the state (`prim.def_impl(...)`), which the project
    calls on the object only before the jit, in the code that makes it: setup
    that runs once, not a change after use."""
    if not change.inside or obj is None:
        return False
    name = change.function.rpartition(".")[2]
    calls = [
        (path, scope, call) for path, scope, call in model.symbols.calls.where(last=(name,))
        if call.ref is not None and call.ref.parent == obj
    ]
    return bool(calls) and all(
        path == made.path and scope == made.function and call.location < made.application.location
        for path, scope, call in calls
    )


class JittedBoundMethod(Rule):
    """`jax.jit(obj.method)` is kept and called again, and the method reads
    attributes of `obj` that are assigned after it is built: the jitted
    function keeps returning results for the old values, with no error.

    ## What it does

    Flags a compiling transform applied to a bound method, `jax.jit(obj.method)`
    or `jax.jit(self.method)`, in any spelling (`jit(c.calc)` imported, aliases,
    a local chosen by a condition, `func = jax.jit if n == 1 else jax.pmap`,
    `partial(jax.jit, static_argnums=1)(self.step)`, through `jax.vmap` and its
    kin, or through a project decorator whose wrapper calls what it is given:
    `jax.jit(checked(self.step))`), when all of these hold:

    - The transform keeps a trace cache on the function it returns: `jax.jit`,
      `pjit`, `jax.pmap`, `nnx.jit`, `nnx.pmap`, `eqx.filter_jit`,
      `eqx.filter_pmap`, `jax.checkpoint`/`remat`, `nnx.remat`,
      `jax.make_jaxpr`, and the transforms you list in `extra-transforms`
      (`vmap` and `grad` keep none and are not looked at).
    - The jitted function is kept: stored (`self._step = jax.jit(self.step)`, a
      module-level name), returned, passed on, or held in a local that is called
      more than once or in a loop (then an assignment later in the same
      function is what makes it stale). Under `eqx.filter_jit`/`filter_pmap`
      it need not be kept: they hash the function they are given, two bound
      methods of one object are equal, so `eqx.filter_jit(self.apply)(x)` made
      on every call finds the old cache (4.0 where 6.0 is right after
      `obj.w = 3.0`).
    - jaxcheck knows the class of `obj`: `self`, a name bound to `Cls(...)`, or
      a parameter annotated with the class. The class may live in another
      module of the project. `self.update` in a base class is also each
      project subclass's override: a base that jits `self.update` in its
      `__init__` or `__post_init__` jits the subclass's method.
    - The class can be judged (its bases and decorators are all known), is
      mutable (a plain class that does not block `__setattr__`, a `@dataclass`
      or attrs class that is not frozen, or a subclass of one). Being a
      registered pytree does not help: `jax.jit(c.calc)` never flattens the
      bound method's `self`, so a mutable class under
      `@register_pytree_node_class` gives 6, then 6 again, like a plain one.
    - The method reads an attribute of `self`, directly or through the
      `self.helper()` methods and properties it uses, and that attribute is
      assigned after construction: in a method that runs after objects are
      built (one the project calls outside `__init__`, `__post_init__`, `setup`
      and their helpers, or, never called in the project, a public method of a
      public class), or from outside on an instance of the class
      (`c.mul = False`, `c.x += 1`, `setattr(c, "mul", False)`), anywhere in
      the project. A write from outside that comes earlier in the
      same function (or module body) than the transform happens before the
      jitted function exists, and does not count. A library never writes
      what its users set: a public field of a public `@dataclass` (or attrs
      class) that is not frozen, outside tests, is an invitation to
      `opt.learning_rate = 0.1`, and counts as a write by its users.

    Reported at the transform call; the message names the assignment
    (`path:line`, and how many more there are).

    ## Why is this bad?

    `jax.jit(c.calc)` jits a bound method: `self` is part of the callable, not
    an argument, so `jax.jit` never looks at it. The first call traces `calc`,
    reads `self.x` and `self.mul`, and compiles them in as constants. The cache
    key is the function, the shapes and dtypes of the arguments, the static
    arguments and the global config; changing `c.mul` changes none of them, so
    the next call runs the old program.

    Checked on jax 0.10.2, flax 0.12.8, equinox 0.13.8, CPU: the example
    prints 6, then 6 again after `c.mul = False`, where 3 is right. The same
    happens with `pjit`, `jax.pmap`, `nnx.jit`, `nnx.pmap`, `eqx.filter_jit`
    and `eqx.filter_pmap`, and with array attributes (baked in as constants
    too). `self._step = jax.jit(self.step)` in `__init__`, then
    `set_scale(3.0)`: 5.0, then 5.0 again instead of 7.0.

    ## Example

    ```python
    import jax.numpy as jnp
    from jax import jit

    class CustomClass:
        def __init__(self, x: jnp.ndarray, mul: bool):
            self.x = x
            self.mul = mul

        def calc(self, y):
            if self.mul:
                return self.x * y
            return y

    c = CustomClass(2, True)
    jitted_calc = jit(c.calc)  # JAX201 is reported on this line
    print(jitted_calc(3))  # 6
    c.mul = False
    print(jitted_calc(3))  # 6 again: the program compiled for mul=True
    ```

    ## Use instead

    Jit a module-level function that takes the state as arguments, and have the
    object pass its current values on every call. Arrays are traced; Python
    values that steer the trace (here `mul`, read by an `if`) are static, so a
    new value compiles again.

    ```python
    import jax
    import jax.numpy as jnp

    def _calc(x, y, mul):
        if mul:
            return x * y
        return y

    _calc_jit = jax.jit(_calc, static_argnames="mul")

    class CustomClass:
        def __init__(self, x: jnp.ndarray, mul: bool):
            self.x = x
            self.mul = mul

        def calc(self, y):
            return _calc_jit(self.x, y, mul=self.mul)

    c = CustomClass(2, True)
    print(c.calc(3))  # 6
    c.mul = False
    print(c.calc(3))  # 3: mul=False is a new static value, compiled anew
    ```

    The same goes for an object that jits its own method in `__init__`:
    replace `self._step = jax.jit(self.step)` by a module-level
    `@jax.jit def _step(scale, x)` called as `_step(self.scale, x)`. Other
    fixes:

    - register the class as a pytree and jit the method itself, so `self` is an
      argument flattened on every call (see JAX202): after `c.mul = False`,
      `c.calc(3)` gives 3;
    - make the class immutable (a frozen dataclass, an `eqx.Module`), build a
      new object for new values (`dataclasses.replace`) and jit the new
      object's method.

    ## Fix

    No automatic fix: whether to freeze the class, pass its state as an argument
    or jit a module-level function is a design choice.

    ## Options

    JAX201 is reported under both profiles: the assignment it names, made after
    the jitted function exists, is the evidence of a stale result. With no
    such assignment, a kept `jax.jit(self.method)` whose method reads public
    attributes of a class a library's users build (public, in a module of the
    library, not a test, an example or a script) is reported too, naming
    them: a user who sets `model.scale = 3.0` gets the old value (latent).
    So is a kept `jax.jit(self._model.evaluate)` of an object the caller hands
    to `__init__` (`self._model = model`): the caller owns it and may change it.
    `extra-transforms` adds your own compiling transforms to those checked;
    subclasses of `static-bases` count as immutable and are not flagged.

    ## Known problems

    Not flagged, and fine:

    - frozen dataclasses, `NamedTuple`, attrs frozen classes, `eqx.Module`,
      `flax.struct` classes, classes that block `__setattr__`, subclasses of
      your `static-bases`: their attributes are not assigned again;
    - a method that reads no state of `self`, or only attributes never assigned
      after construction (a counter `self.calls += 1` the method never reads
      does not matter);
    - a bound method jitted and used at once (`jax.jit(c.calc)(3)`, a local
      called once): `jax.jit` traces it anew each time, so it cannot go stale,
      but it compiles on every call (JAX401). Not so under equinox's
      transforms, which find their cache again (above).

    Not flagged, since jaxcheck never guesses: a class it cannot judge (an
    unknown base such as `flax.nnx.Module`, an unknown decorator or metaclass),
    and an object whose class it does not know (`m = c.calc` then
    `jax.jit(m)`, an unannotated parameter). One unannotated parameter is
    known: one named after the only family of project classes that defines
    the method read off it (`model.evaluate`, where only `BaseModel` and its
    subclasses define `evaluate`), or `self._model` storing such a parameter.

    May be reported though the result is right: jaxcheck matches writes to
    the class, not to the time of the calls, so a write after the last call of
    the jitted function counts, and so does a write to another instance, unless
    both names are bound to objects built right there (`a = C(); b = C()`).
    If the object really never changes while the jitted function is used, put
    `# noqa: JAX201` on the reported line, or set `ignore = ["JAX201"]` or
    `per-file-ignores = { "tests/*" = ["JAX201"] }` in `[tool.jaxcheck]`.

    ## References

    - StackOverflow, "Using Jax Jit on a method as decorator versus applying jit
      function directly": the `CustomClass` example (6, then 6 after
      `c.mul = False`), and Jake VanderPlas's answer: the cache key is the
      function's id, the shapes and dtypes of the arguments, the static
      arguments and the global config, and changing the object changes none of
      them; "it's rarely the behavior that users would want".
    - JAX FAQ, "How to use `jit` with methods?": Strategy 1, a jitted helper
      function; Strategy 3, registering the class as a pytree.
      https://docs.jax.dev/en/latest/faq.html
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"): a
      bound method `self.foo` "has self bound to it" and is not a singleton;
      innocuous code "can lead to silent computation of incorrect results,
      rather than errors".
    """

    code = "JAX201"
    name = "jitted-bound-method"
    summary = "a jit of `obj.method` whose method reads instance state that is assigned again later"
    facts = ("baked-self",)

    def check(self, model: Model):
        for path in model.symbols.modules:
            for made in model.functions.made(path):
                if _never_stale(made):
                    continue
                for cls, method in model.functions.bound_methods(made):
                    if not _holds_mutable_state(model, cls):
                        continue
                    owner = made.application.target.ref.parent
                    reads = model.state.method_reads(cls, method)
                    changed = _changes(model, cls, reads, made, owner)
                    obj = owner.dotted if owner.is_local else owner.name.rpartition(".")[2]
                    class_name = cls.rpartition(".")[2]
                    transform = made.transform.name
                    if not changed:
                        public = _latent(model, cls, reads, made, owner)
                        if public:
                            yield self.finding(
                                path,
                                made.application.location,
                                f"`{transform}({_wrapped(made, f'{obj}.{method.name}')})` traces `{class_name}.{method.name}` "
                                f"once and compiles in the public {public} of `{obj}`, which users of `{class_name}` may "
                                f"set: after a user's `{instance_name(class_name) if obj.partition('.')[0] == 'self' else obj}."
                                f"{public_names(model, cls, reads)[0]} = ...` the jitted "
                                "function keeps returning results for the old value",
                                "Jit a function that takes that state as arguments (static for Python values that "
                                "steer the trace), or make the class immutable (a frozen dataclass, or a registered "
                                "pytree) and jit the method of the new object",
                            )
                            break  # one finding per jit: the first class users may change is enough
                        continue
                    yield self.finding(
                        path,
                        made.application.location,
                        f"`{transform}({_wrapped(made, f'{obj}.{method.name}')})` traces `{class_name}.{method.name}` "
                        "once and compiles in "
                        f"what it reads of `{obj}`, but `{class_name}` is mutable and {_changed_text(changed)} "
                        "changes it: the jitted function keeps returning results for the old value",
                        "Jit a function that takes that state as arguments (static for Python values that steer "
                        "the trace), or make the class immutable (a frozen dataclass, or a registered pytree) and "
                        "jit the method of the new object",
                        tuple(map(related_change, changed)),
                    )
                    break


class JittedClosureOverSelf(Rule):
    """A lambda or nested function that reads `self.attr` is jitted and kept, and
    `attr` is assigned after the object is built: the jitted function keeps
    the value it saw when it was traced, with no error.

    ## What it does

    Flags a compiling transform applied, inside a method, to a lambda or a
    nested function that reads attributes of the method's `self`:

    - the call form: `jax.jit(lambda x: x * self.scale)`, or `def f(x): ...`
      then `jax.jit(f)`;
    - the decorator form: `@jax.jit` (any spelling) on a nested `def` that is
      returned or stored (`self._g = g`);

    when all of these hold:

    - The transform keeps a trace cache on the function it returns: `jax.jit`,
      `pjit`, `jax.pmap`, `nnx.jit`, `nnx.pmap`, `eqx.filter_jit`,
      `eqx.filter_pmap`, `jax.checkpoint`/`remat`, `nnx.remat`,
      `jax.make_jaxpr`, and the transforms you list in `extra-transforms`
      (`vmap` and `grad` keep none and are not looked at).
    - The jitted function is kept: stored, returned, or passed on. A local
      called more than once counts only when the same method assigns the
      attribute between the jit and a later use: otherwise the closure is made
      anew on every call and cannot go stale.
    - The class of `self` can be judged (its bases and decorators are all
      known), is mutable (a plain class that does not block `__setattr__`, a
      `@dataclass` or attrs class that is not frozen, or a subclass of one). A
      registered pytree is no exception: the transform never sees the `self`
      a closure holds.
    - An attribute the function reads, directly (`self.scale`) or through the
      `self.helper()` methods and properties it calls, is assigned after
      construction: in a method that runs after objects are built (one the
      project calls outside `__init__`, `__post_init__`, `setup` and their
      helpers, or, never called in the project, a public method of a public
      class), or from outside on an instance of the class (`m.scale = 3.0`),
      anywhere in the project. A write from outside that comes earlier in the
      same function (or module body) than the transform does not count. A
      public field of a public `@dataclass` (or attrs class) that is not
      frozen, outside tests, counts as written by the library's users.

    Reported at the transform call, or on the decorator line; the message names
    the attributes read and the assignment (`path:line`).

    ## Why is this bad?

    `self` is a free variable of the closure, not an argument, so `jax.jit`
    never looks at it. The first call traces the function, reads `self.scale`
    and compiles its value in as a constant. The cache key (the function, the
    shapes and dtypes of the arguments, the static arguments, the global
    config) does not change when `self.scale` does, so later calls run the old
    program. An array attribute is baked in just the same.

    Checked on jax 0.10.2, CPU: the example prints 4.0, then 4.0 again after
    `m.scale = 3.0`, where 6.0 is right. A `@jax.jit` nested `g` reading
    `self.offset`, stored in `__init__`: 3.0, then 3.0 again after
    `shift(2.0)` instead of 4.0.

    ## Example

    ```python
    import jax
    import jax.numpy as jnp

    class Model:
        def __init__(self, scale: float):
            self.scale = scale
            self._f = jax.jit(lambda x: x * self.scale)  # JAX203 is reported on this line

        def __call__(self, x):
            return self._f(x)

    m = Model(2.0)
    x = jnp.float32(2.0)
    print(m(x))  # 4.0
    m.scale = 3.0
    print(m(x))  # 4.0 again: the program compiled for scale=2.0
    ```

    The same with a decorated nested function:

    ```python
    import jax

    class Shifter:
        def __init__(self, offset: float):
            self.offset = offset

            @jax.jit  # JAX203 is reported on this line
            def g(x):
                return x + self.offset

            self._g = g

        def shift(self, offset: float):
            self.offset = offset

        def __call__(self, x):
            return self._g(x)

    s = Shifter(1.0)
    print(s(2.0))  # 3.0
    s.shift(2.0)
    print(s(2.0))  # 3.0 again, not 4.0
    ```

    ## Use instead

    Make the value an argument of the jitted function, and pass the current
    value on every call. It is traced, so the same compiled program reads the
    new value (1 trace for both calls):

    ```python
    import jax
    import jax.numpy as jnp

    class Model:
        def __init__(self, scale: float):
            self.scale = scale
            self._f = jax.jit(lambda scale, x: x * scale)

        def __call__(self, x):
            return self._f(self.scale, x)

    m = Model(2.0)
    x = jnp.float32(2.0)
    print(m(x))  # 4.0
    m.scale = 3.0
    print(m(x))  # 6.0
    ```

    A Python value that steers the trace (read by an `if`, used as a shape)
    goes in as a static argument (`static_argnums`/`static_argnames`): a new
    value compiles again. Or make the class immutable (a frozen dataclass, an
    `eqx.Module`) and build a new object, with its own jitted function, for
    new values.

    ## Fix

    No automatic fix: the state the closure reads has to become an argument,
    which changes the function and its callers.

    ## Options

    JAX203 is reported under both profiles: the assignment it names, made after
    the jitted function exists, is the evidence of a stale result.
    `extra-transforms` adds your own compiling transforms to those checked;
    subclasses of `static-bases` count as immutable and are not flagged.

    ## Known problems

    Not flagged, and fine:

    - frozen dataclasses, `NamedTuple`, attrs frozen classes, `eqx.Module`,
      `flax.struct` classes, classes that block `__setattr__`, subclasses of
      your `static-bases`;
    - attributes never assigned after construction: a new value means a new
      object, whose closure is traced anew;
    - a closure jitted and used at once (`jax.jit(lambda v: v * self.scale)(x)`,
      a local called once): traced anew each time, it cannot go stale, but it
      compiles on every call (JAX401);
    - a `functools.partial(f, s=self.scale)`: it holds the value read when it
      was made, not `self`;
    - a dict or list read only for its keys or length (`"k" in self.opt`,
      `len(self.opt)`) that every call of the jitted function, in the class,
      hands over whole in its arguments (`self._f(self.opt)`, or
      `self.inputs["opt"] = self.opt` with `self.inputs` passed): its keys are
      part of the arguments' pytree, so a new key traces again.

    Not flagged, since jaxcheck never guesses: a class it cannot judge (an
    unknown base such as `flax.nnx.Module`, an unknown decorator or
    metaclass). Not flagged, but stale just the same: a closure over an object
    other than the method's `self` (`def make(m: Model): return jax.jit(lambda
    x: x * m.scale)`), or over an alias of `self` (`s = self`).

    May be reported though the result is right: jaxcheck matches writes to
    the class, not to the object, nor to the time of the calls: a write to
    another instance, or one after the last call of the jitted function,
    counts. If the attribute really never changes while
    the jitted function is used, put `# noqa: JAX203` on the reported line, or
    set `ignore = ["JAX203"]` or `per-file-ignores = { "tests/*" = ["JAX203"] }`
    in `[tool.jaxcheck]`.

    ## References

    - StackOverflow, "Using Jax Jit on a method as decorator versus applying jit
      function directly", Jake VanderPlas's answer: the cache key is
      the function's id, the shapes and dtypes of the arguments, the static
      arguments and the global config; a change to the object changes none of
      them.
    - JAX FAQ, "How to use `jit` with methods?": Strategy 1, a jitted helper
      function that takes what it needs as arguments.
      https://docs.jax.dev/en/latest/faq.html
    - JAX docs, "Just-in-time compilation", "JIT and caching".
      https://docs.jax.dev/en/latest/jit-compilation.html#jit-and-caching
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes").
    """

    code = "JAX203"
    name = "jitted-closure-over-self"
    summary = "a jitted lambda or nested function reads `self` state that is assigned again later"
    facts = ("baked-self",)

    def check(self, model: Model):
        for path in model.symbols.modules:
            for made in model.functions.made(path):
                if made.fate in THROWAWAY:
                    continue  # a closure is a new function each time: never found again
                for cls, chains in sorted(model.functions.closed_over(made).items()):
                    if not _holds_mutable_state(model, cls):
                        continue
                    chains = chains - _passed_shapes(model, made, cls)
                    if not chains:
                        continue
                    reads = model.state.object_reads(cls, Reads(frozenset(chains)))
                    changed = _changes(model, cls, reads, made, None)
                    if not changed:
                        continue
                    target = made.application.target
                    what = f"the nested function `{made.nested.name}`" if made.nested is not None else (
                        "a lambda" if target.kind == f.LAMBDA else f"the nested function `{target.ref.last}`"
                    )
                    calls = [f"`self.{'.'.join(c)}(...)`" for c in sorted(chains) if model.symbols.find_method(cls, c[-1])]
                    reads = [f"`self.{'.'.join(c)}`" for c in sorted(chains) if not model.symbols.find_method(cls, c[-1])]
                    read = " and ".join(
                        [f"reads {', '.join(reads)}"] * bool(reads) + [f"calls {', '.join(calls)}"] * bool(calls)
                    )
                    class_name = cls.rpartition(".")[2]
                    yield self.finding(
                        path,
                        made.application.location,
                        f"`{made.transform.name}` compiles {what}, which {read}, and the jitted function is "
                        f"kept; but `{class_name}` is mutable and {_changed_text(changed)} changes it: the compiled "
                        "function keeps the value it saw when traced and returns stale results after the change",
                        "Pass the value as an argument of the jitted function (`jax.jit(lambda scale, x: x * scale)`, "
                        "called with `self.scale`), or make the class immutable",
                        tuple(map(related_change, changed)),
                    )
                    break


def _passed_shapes(model: Model, made: Made, cls: str) -> set[Chain]:
    """The attributes of `self` the function reads only for their keys or length
    (`"k" in self.opt`, `len(self.opt)`) and that every call of it hands over as
    (part of) an argument: their structure is part of the arguments' pytree, so
    a change of keys traces again, and a change of values is not read."""
    shapes = {
        read.attributes for read in made.shape_reads
        if model.functions.is_self(read.base) and len(read.attributes) == 1 and _holds_a_dict(model, cls, read.attributes[0])
    }
    return shapes & model.functions.handed_to_calls(made, cls) if shapes else set()


def _holds_a_dict(model: Model, cls: str, attribute: str) -> bool:
    """`self.<attribute>` is given a dict, and never a list or set: `k in` a list
    compares its values, which are read, not only its structure."""
    kinds = {model.symbols.unhashable_kind(write.value) for write in model.symbols.self_writes(cls, attribute) if write.value}
    return "dict" in kinds and not kinds & {"list", "set"}


def _wrapped(made: Made, target: str) -> str:
    """The jitted target as written, with the project decorators around it: `checked(self.step)`."""
    return "".join(f"{name}(" for name in made.wrappers) + target + ")" * len(made.wrappers)
