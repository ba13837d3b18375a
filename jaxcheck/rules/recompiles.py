"""JAX4xx: compiled functions made again on every call.

`jax.jit` keeps its cache on the function it returns. Made inside a function
from a lambda, a nested function, a `partial` or a bound method (a new object
each time) and thrown away there, every call starts with an empty cache and
traces and compiles again: 4 calls, 4 compilations, where 1 is needed.
Only code that runs again and again is flagged (made in a loop, in a
function a loop or `tree_map` reaches, or in a public function a library
offers its users): code run once per program pays the
one compile either way.
"""

from __future__ import annotations

from jaxcheck import facts as f
from jaxcheck.facts import Ref
from jaxcheck.findings import place_named
from jaxcheck.model.jax_api import CACHING, FRESH_OBJECTS, PARTIAL, TRACING_NAMES
from jaxcheck.model.functions import BUILDING, CALLED, DROPPED, KEPT, PASSED, REUSED, THROWAWAY, Made, sets_up
from jaxcheck.model.project import Model
from jaxcheck.rules.base import Rule


class JitRecreatedPerCall(Rule):
    """A jit of a lambda, a nested function, a `functools.partial` or a bound
    method is made inside a function (or a loop) and used only there: every
    call builds a new jitted function with an empty cache, so JAX traces and
    compiles again every time.

    ## What it does

    Flags a compiling transform applied inside a function body, or in a loop
    or comprehension at module level, to a function object made anew each time
    that code runs:

    - a lambda: `jax.jit(lambda v: _body(v))`;
    - a function nested in the enclosing function: `jax.jit(inner)`, or
      `@jax.jit` on the nested `def`;
    - a function whose `def` is inside the same loop, at module level too
      (`for cfg in CONFIGS: def body(...): ...` then `jax.jit(body)(x)`);
    - a `functools.partial(...)`;
    - a bound method of an object whose class jaxcheck knows: `self._apply`, or
      `model.apply` with `model` bound to `Model(...)` or annotated `Model`
      (a method the class defines, or one a library base gives it: `apply`
      and `init` of a `flax.linen.Module`);
      or of any object given as a parameter (`jax.jit(env.step)` in
      `def on_key(env, ...)`): a module is imported, never passed;
    - any function given through `jax.vmap`, `jax.grad` and their kin
      (`jax.jit(jax.vmap(fn))`, also through a local:
      `step = jax.vmap(fn)` then `step = jax.jit(step)`): each application
      returns a new function;

    when its result is used only there (in a function that runs again and
    again, a local called more than once in one run also compiles once per
    run):

    - called at once: `jax.jit(lambda v: _body(v))(x)`, also in a comprehension;
    - made as a statement and dropped: `jax.jit(inner)` alone on its line;
    - held in a local called exactly once, outside any loop:
      `f = jax.jit(...)` then `f(x)`;
    - made and called in the same loop turn:
      `for ...: f = jax.jit(...); y = f(y)`;
    - a `@jax.jit` nested `def` called once (or not at all), and neither
      returned nor stored;
    - stored on `self` by a method another function runs again and again
      (`restart()` calls `set_optimizer()`, which writes
      `self._update = jax.jit(update)`), in place of the one the last run
      made, with no `if self._update is None` guard;
    - returned by a private factory (`_wrap(func)` returns the jit, or a
      nested function over it) to callers that each use it for that call
      only (`minimize` calls `_wrap(func)` and runs the result once);
    - given to `defvjp` (or `defjvp`) of a `@jax.custom_vjp` (or
      `custom_jvp`) function nested in the same function and only called
      there: the rule lives as long as that function, one call, and JAX
      compiles it again at each call it differentiates outside a jit
      (`jax.grad(loss)(x)`; inside a jit it is traced inline).

    and only when that code runs again and again: the transform is applied in
    a loop (or a comprehension), or in a function the project calls on every
    turn of a loop (directly, or a few calls deeper) or gives to
    `jax.tree_util.tree_map`, or in a public function or method a library
    offers its users (public names, `__call__` included, in a module that is
    not a test, an example or a script), who call it as often as they like,
    or in a helper such a function calls directly. A public function the
    library calls itself only deeper than that still counts when the
    project's tests call it themselves, not from code JAX traces, in several
    tests or in a parametrised one, and it uses the jit for that call only:
    the tests are its users, and run it again and again (one test that calls
    it once is not enough; a jit it reuses in a loop or keeps on an object
    is made once per case, on that case's own inputs). `self.method()` in a
    base class runs the subclasses' own `method` too. Code run once per program (at import, in a
    script's `main()`, in `__init__`, in set-up code named `init`, `setup`,
    `meta_init`, `_initialize_model`) pays the one compilation either way and
    is not flagged.

    The compiling transforms are `jax.jit`, `pjit`, `jax.pmap`, `nnx.jit`,
    `nnx.pmap`, `eqx.filter_jit`, `eqx.filter_pmap`, and those you list in
    `extra-transforms`, in any spelling. Reported at the transform call, or on
    the decorator line.

    ## Why is this bad?

    A jitted function keeps its compiled programs in its own cache, and JAX
    finds them again only for the same function object. A `lambda`, a nested
    `def` or a `functools.partial` is a new object each time its line runs, and
    so is `self._apply` each time it is read: each call hands the transform a
    new function, which starts with an empty cache and is traced and compiled
    again, then thrown away.

    Checked on jax 0.10.2, flax 0.12.8, equinox 0.13.8, CPU: 4 calls with
    same-shaped inputs trace and compile 4 times, where 1 is needed, for
    `jax.jit` of a lambda, a nested function, a `partial` or a bound method,
    for `nnx.jit` and `eqx.filter_jit` of a lambda, for `jax.pmap` of a lambda,
    and for a lambda jitted inside the loop that uses it. The example below
    takes tens of milliseconds a call that way (26 to 70 ms in our runs),
    against 0.01 ms for the same function jitted once.

    A dropped result (`jax.jit(inner)` as a statement) is the opposite
    mistake: a transform does not change its argument in place, it returns a
    new function, so `inner` stays a plain Python function and runs without
    `jit`.

    ## Example

    ```python
    import jax
    import jax.numpy as jnp

    traces = 0

    def _body(v):
        global traces
        traces += 1  # runs only when JAX traces (and compiles) again
        return v * 2.0 + 1.0

    def step(x):
        return jax.jit(lambda v: _body(v))(x)  # JAX401 is reported on this line

    x = jnp.ones(3)
    for _ in range(4):
        step(x)
    print(traces)  # 4: one compilation per call, where 1 is needed
    ```

    ## Use instead

    Jit once, where the function is defined, and call the kept result:

    ```python
    import jax
    import jax.numpy as jnp

    traces = 0

    def _body(v):
        global traces
        traces += 1
        return v * 2.0 + 1.0

    _step = jax.jit(_body)  # made once, when the module is imported

    def step(x):
        return _step(x)

    x = jnp.ones(3)
    for _ in range(4):
        step(x)
    print(traces)  # 1
    ```

    For the other shapes:

    - a nested `@jax.jit def`: move it to module level, and pass what it
      closed over as arguments;
    - `jax.jit(functools.partial(f, factor=2.0))`: jit `f` once with the bound
      argument static, `jax.jit(f, static_argnames="factor")`, and call it
      with `factor=2.0` (a float hashes by value: 1 trace for 4 calls);
    - `jax.jit(self._apply)(x)`: jit once in `__init__`
      (`self._jitted = jax.jit(self._apply)`), or better a module-level function
      of the state; if `_apply` reads attributes that change later, the kept
      version goes stale (JAX201);
    - in a loop: make the jitted function once before the loop and call it in
      every turn;
    - when it must depend on a value, a cached factory
      (`@functools.cache def make_step(scale): ... return jax.jit(step)`) makes
      one jitted function per distinct value.

    ## Fix

    Unsafe (`--fix --unsafe-fixes`): a jit of a lambda or
    `functools.partial(...)` made in a function (`return jax.jit(lambda v:
    _body(v))(x)`) is made once, as a module-level name written before the
    top-level statement that holds it (`_jitted_step = jax.jit(lambda v:
    _body(v))`), and used where it was (`return _jitted_step(x)`). A `@jax.jit`
    nested `def`, or one given to the transform by name (`jax.jit(inner,
    donate_argnums=0)`), that is a plain statement of the function's body
    moves to module level whole: jit finds the cache of a module-level function
    again, however often it is wrapped.

    Offered only where moving the code cannot change what its names mean: every
    name it reads is a module global, a builtin or its own, and the names read
    at once (the transform, `partial`'s arguments, decorators, defaults) are
    bound at module level before it. Unsafe all the same: the per-call jit
    traced again on every call and so saw the current value of every global it
    reads; the hoisted one traces once and keeps what it saw (JAX204). No fix
    for a bound method (`jax.jit(self.method)`: its object may change) or a
    closure over local variables.

    ## Options

    JAX401 is reported under both profiles: a new function object jitted in
    code that runs again and again is the evidence of a compilation on every
    run. `extra-transforms` adds your own compiling transforms to those
    checked.

    ## Known problems

    Not flagged, and fine:

    - `jax.jit(fn)(x)` with `fn` a module-level function (also `pjit`,
      `jax.pmap`, `eqx.filter_jit`): `fn` is the same object every time, so
      JAX finds its cache again (1 trace for 4 calls);
    - a jitted function made once and reused in a function that runs once:
      `step = jax.jit(...)` then `for ...: step(...)` in a script's `main()`;
    - public factories that return the jitted function (their users keep
      it), private ones whose callers keep what they return, and jitted
      functions stored
      (`self._f = ...` in `__init__`, in set-up code, behind a guard, or in a
      public setter only users call, to change what it compiles) or passed on;
    - module-level code outside a loop: it runs once, at import;
    - test files (`test_*.py`, `*_test.py`, `conftest.py`), functions named
      `test` or `test_*`, methods of `Test*` classes, and helpers nested in
      them: a test runs once, on purpose, and a function it makes on each turn
      of a loop is most often a new case (it reads the turn's parameter); but
      a bound method jitted on every turn of a test's loop is flagged: the
      same code, compiled again for each new object;
    - code that runs while JAX traces another function, in any module of the
      project (`jax.jit(make_train(cfg))` traces the `train` that
      `make_train` returns): functions decorated by
      a tracing transform of jax, flax or equinox (`@jax.jit`,
      `@eqx.filter_jit`, `@jax.custom_jvp`, `@nnx.vmap`), functions passed to
      one (the body of `lax.scan`, `lax.cond` branches, `jax.vmap(f)`), and the
      functions nested in those. (A function given to `jax.tree_util.tree_map`
      is not traced: it runs on every call, and is checked.) There an inner
      `jax.jit(lambda ...)` is traced once per compile of the outer function
      (1 trace for 4 calls of a jitted outer function);
    - `jax.make_jaxpr(f)(x)`, `jax.checkpoint`/`jax.remat`, `vmap`, `grad`: not
      compiling transforms;
    - code the project runs once: a function no loop of the project reaches
      and no user of a library calls (`ok_jit_once_in_main.py`: a script's
      `main()` jits a `partial` once, then calls it in its loop: 1 trace for 4
      steps), a private function, `__init__` and `setup`.

    Not flagged, but compiles on every call just the same (checked on the
    versions above):

    - `nnx.jit(fn)(x)` or `nnx.pmap(fn)(x)` made on every call, even with `fn`
      a module-level function: each new `nnx.jit` starts with an empty cache
      (4 traces for 4 calls). Keep `nnx.jit(fn)` once;
    - `f = jax.jit(lambda ...)` bound in a loop at module level;
    - a bound method of an object whose class jaxcheck does not know, held
      in a local or a global (`jax.jit(model.apply)(x)` with `model` read
      from a registry).

    Not flagged, because it is no recompile: `eqx.filter_jit(self.apply)(x)`
    (and `eqx.filter_pmap`) made on every call. Two bound methods of the same
    object compare equal, so Equinox finds its cache again (1 compilation for
    4 calls); for that same reason it returns stale results once the object's
    state changes (4.0 where 6.0 is right), which JAX201 reports.

    If the reported code runs only a few times in practice, put
    `# noqa: JAX401` on the reported line, or set `ignore = ["JAX401"]` or
    `per-file-ignores = { "scripts/*" = ["JAX401"] }` in `[tool.jaxcheck]`.

    ## References

    - JAX docs, "Just-in-time compilation", "JIT and caching": avoid calling
      `jax.jit` on temporary functions defined inside loops or other Python
      scopes; a `partial` or a `lambda` made anew is a function with a
      different hash, and is compiled each time.
      https://docs.jax.dev/en/latest/jit-compilation.html#jit-and-caching
    - StackOverflow, "Using Jax Jit on a method as decorator versus applying jit
      function directly", Jake VanderPlas's answer: the cache key
      starts with the ID of the function being compiled.
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"):
      objects hash by value "to avoid paying the cost of recompilation" when
      equivalent copies are built anew on each call.
    """

    code = "JAX401"
    name = "jit-recreated-per-call"
    summary = "a jit of a lambda, nested function, `partial` or bound method is made and thrown away on every call"
    facts = ("function-key",)

    def check(self, model: Model):
        for path in model.symbols.modules:
            for made in model.functions.made(path):
                passed = made.fate == PASSED and _passed_to_project_functions(made, model)
                replaced = made.fate == KEPT and _replaced_on_self(made, model)
                returned = _returned_for_one_run(made, model) if made.fate == KEPT and not replaced else None
                if made.fate not in (*THROWAWAY, REUSED) and not passed and not replaced and not returned:
                    continue
                if not made.transform.compiles:
                    continue
                what = _made_anew(made, model)
                if what is None:
                    continue
                in_loop = made.in_loop and not _made_before_the_loop(made, model)
                name = made.function.rpartition(".")[2]
                # Objects built in a loop run `__init__` again and again; users build them as they need.
                runs_again = bool(returned) or not sets_up(name) and (
                    made.function in model.functions.called_repeatedly or made.function in model.functions.run_again
                )
                # Tests that call a public function in several cases run it again, when it uses its jit for that
                # call only: a run of its own that steps a loop with the jit, or a jit kept on an object, is made
                # once per case, on that case's own inputs or object.
                tested = (
                    model.functions.how_tests_run_again(made.function)
                    if made.function and (made.fate in THROWAWAY or made.fate == PASSED)
                    and not (in_loop or runs_again or sets_up(name) or name in BUILDING)
                    else ""
                )
                runs_again = runs_again or bool(tested)
                if not (in_loop or runs_again):
                    continue  # made once per program for all jaxcheck sees (at import, in `main()`, in `__init__`)
                if made.fate in (REUSED, PASSED, KEPT) and not runs_again:
                    continue  # made once in this run of the function and used again in it: the cache is used
                if made.function and model.functions.is_test(made.function) and not (
                    in_loop and _a_bound_method(made, model)
                ):
                    # A test runs it once, on purpose. In a test's loop, a function made per turn is most
                    # often a new case (it reads the turn's parameter); a bound method is the same code.
                    continue
                if made.function and model.functions.runs_only_while_tracing(made.function):
                    continue  # JAX runs traced code once per compilation
                if not made.function and model.functions.in_test_file(path):
                    continue
                yield self.finding(path, made.application.location, *_message(made, what, model, returned, tested))


def _message(
    made: Made, what: str, model: Model, returned: tuple[str, str, int] | None = None, tested: str = ""
) -> tuple[str, str]:
    """The message and the fix."""
    transform = made.transform.name
    if returned is not None:
        caller, caller_path, line = returned
        through = model.functions.runs_again_through(caller)
        again = (
            "a loop calls it on every turn" if caller in model.functions.called_repeatedly
            else "the library offers it to its users" if through == caller
            else f"it runs at every call of `{model.symbols.short_name(through)}`"
        )
        return (
            f"`{transform}` makes a new jitted function from {what} in `{model.symbols.short_name(made.function)}` "
            f"and returns it to `{model.symbols.short_name(caller)}` ({place_named(caller_path, line)}), which uses it only "
            f"for that call ({again}): each call builds a new jitted function, so JAX traces and compiles it again "
            "every time",
            "Jit it once and keep it (at module level, or in a cached factory keyed on what it closes over); "
            "pass what changes as arguments",
        )
    if made.fate == DROPPED:
        return (
            f"`{transform}` makes a new jitted function from {what} and drops it: the function it was given is "
            "not changed, and the new one's cache is thrown away",
            "Keep the result once (`step = jax.jit(step)` at module level or in `__init__`) and call that",
        )
    where = f"in `{model.symbols.short_name(made.function)}`" if made.function else "in a loop at module level"
    if tested:
        where += f", a public function the tests run again ({tested}),"
    elif made.function and not made.in_loop and made.function in model.functions.called_repeatedly:
        where += ", which a loop calls on every turn,"
    elif made.function and not made.in_loop:
        through = model.functions.runs_again_through(made.function)
        caller = f"`{model.symbols.short_name(through)}`"
        if through in model.functions.called_repeatedly:
            where += f", which runs at every call of {caller} in a loop,"
        elif through != made.function:
            where += f", which runs at every call of {caller}, a function the library offers its users,"
        else:
            where += ", which the library offers its users to call as often as they like,"
    how = (
        "and calls it right away" if made.fate == CALLED
        else "and uses it only in that call" if made.fate == REUSED
        else "and hands it to a function for that call only" if made.fate == PASSED
        else "and stores it on the object in place of the one the last call made" if made.fate == KEPT
        else "and uses it only there"
    )
    consequence = "so JAX traces and compiles it again every time"
    if made.fate == PASSED and (rule := _derivative_rule_taking(made, model)):
        how = f"and gives it to `{rule}`, a custom derivative made anew for that call only"
        consequence = "so JAX traces and compiles it again each time it differentiates a call outside a jit"
    return (
        f"`{transform}` makes a new jitted function from {what} {where} {how}, {consequence}",
        "Jit it once and keep it (at module level, in `__init__`, or in a cached factory); pass what changes as "
        "arguments",
    )


def _replaced_on_self(made: Made, model: Model) -> bool:
    """`self._step = jax.jit(step)` in a method that is not `__init__` or set-up
    and never reads `self._step` (no `if self._step is None` guard), which
    another function runs again and again (`restart()` calls
    `set_optimizer()`): each run replaces the kept jitted function, and its
    cache, with a new one. A public setter only users call is left alone: they
    call it to change what it compiles."""
    function = model.symbols.functions.get(made.function)
    if function is None or not function.is_instance_method or function.name in BUILDING or sets_up(function.name):
        return False  # `__init__` stores one on each new object: its own, made once
    functions = model.functions
    if made.function not in functions.called_repeatedly and functions.runs_again_through(made.function) == made.function:
        return False
    writes = [
        write for write, _ in model.symbols.writes.get(Ref(function.self_name, function.qualname), ())
        if write.value is not None and write.value.location == made.application.location
    ]
    if not writes:
        return False
    reads = {chain for use in function.uses if use.name == function.self_name for chain in use.reads}
    return not any((write.attribute,) == chain[:1] for write in writes for chain in reads)


def _returned_for_one_run(made: Made, model: Model) -> tuple[str, str, int] | None:
    """A private factory (`_wrap(func)`) that makes a jit and returns it, or a
    nested function over it, to callers that each use the result for that
    call only, at least one of them code that runs again and again (offered
    to users, or in a loop): the jit lives one run of its caller, and every
    run compiles again. (caller, its file, the line of its call) for the
    message; None when the factory is public (its users may keep what it
    returns), a method, or a caller keeps the result (on an object, at module
    level, in a container, returned on), or no caller runs again."""
    symbols, functions = model.symbols, model.functions
    factory = symbols.functions.get(made.function)
    if factory is None or factory.class_qualname or functions.public_api(made.function) or sets_up(factory.name):
        return None
    if any((decorator.func or decorator).dotted in CACHING for decorator in factory.decorators):
        return None  # `@functools.lru_cache`: one jit per argument, kept
    if functions.is_test(made.function) or functions.runs_only_while_tracing(made.function):
        return None
    module = symbols.modules[made.path]
    location = made.application.location
    if made.nested is not None:
        held = {Ref(made.nested.qualname)}
    else:
        held = {
            binding.ref for binding in module.bindings
            if binding.value.location == location and binding.ref.is_local and binding.ref.function == made.function
        }
    if not _returned_only(model, module, made.function, held, location):
        return None
    found = None
    for path, caller, call in symbols.calls.where(callees=(made.function,)):
        if not caller or functions.is_test(caller) or functions.in_test_file(path):
            continue
        caller_module = symbols.modules[path]
        results = {
            binding.ref for binding in caller_module.bindings
            if binding.value.location == call.location and binding.ref.is_local and binding.ref.function == caller
        }
        if _kept(model, caller_module, caller, results, call.location):
            return None
        name = caller.rpartition(".")[2]
        again = not sets_up(name) and name not in BUILDING and not functions.runs_only_while_tracing(caller) and (
            caller in functions.called_repeatedly or caller in functions.run_again
        )
        if again and found is None:
            found = (caller, path, call.location.line)
    return found


def _returned_only(model: Model, module, function: str, held: set[Ref], location) -> bool:
    """The jit made at `location` (held in the locals `held`) leaves `function`
    only by its `return`, itself or in a nested function over it: nothing
    else keeps it."""
    facts = model.symbols.functions[function]
    carriers = _carriers(model, module, function, held)
    if _kept(model, module, function, held | carriers, location, own_returns=False):
        return False
    names = held | carriers
    return bool(facts.returns) and all(
        value.location == location and value.kind == f.CALL and (value.func is None or value.func.location != location)
        or value.kind == f.NAME and value.ref is not None and not value.ref.attributes and _base(value.ref) in names
        for value in facts.returns
    )


def _carriers(model: Model, module, function: str, refs: set[Ref]) -> set[Ref]:
    """The functions nested in `function` that read one of `refs` (or one of
    these), named as module-level names are."""
    found: set[Ref] = set()
    nested = [facts for facts in module.functions if facts.qualname.startswith(function + ".")]
    grew = True
    while grew:
        grew = False
        for facts in nested:
            ref = Ref(facts.qualname)
            if ref not in found and any(_base(read) in refs | found for read in facts.outer_reads):
                found.add(ref)
                grew = True
    return found


def _base(ref: Ref) -> Ref:
    return Ref(ref.name, ref.function) if ref.attributes else ref


def _holds(model: Model, value: f.Value | None, refs: set[Ref], location) -> bool:
    """`value` is, or holds, one of `refs` or the value made at `location`:
    itself, in a display, or wrapped by a `partial`, a transform or a class.
    What another call returns is its own value (the call is judged apart)."""
    if value is None:
        return False
    if value.kind == f.NAME:
        return value.ref is not None and _base(value.ref) in refs
    if value.kind == f.CALL:
        if value.location == location and (value.func is None or value.func.location != location):
            return True  # the value itself, not a call of it (`_make(f)(x)` starts where `_make(f)` does)
        name = value.dotted
        wraps = name == PARTIAL or name in f.WRAPPERS or name.rpartition(".")[2] in TRACING_NAMES
        if not wraps and model.symbols.constructed_class(value) is None:
            return False
    inner = (*value.args, *(item for _, item in value.keywords))
    return any(_holds(model, item, refs, location) for item in inner)


def _kept(model: Model, module, function: str, refs: set[Ref], location, own_returns: bool = True) -> bool:
    """The value made at `location` in `function`, held in the locals `refs`,
    may outlive the run: stored on an object or in a container, bound to
    another name, handed to a class or a method of an object, or (`own_returns`)
    returned. Read by a nested function, that function's uses count too."""
    symbols = model.symbols
    refs = refs | _carriers(model, module, function, refs)
    within = lambda scope: scope == function or scope.startswith(function + ".")
    for write in module.attribute_writes:
        if within(write.function) and _holds(model, write.value, refs, location):
            return True
    for binding in module.bindings:
        if binding.value.location == location and binding.ref.is_local and binding.ref.function == function:
            continue  # the local that holds it
        if within(binding.function) and _holds(model, binding.value, refs, location):
            return True
    for scope, call in module.calls:
        if not within(scope) or call.location == location:
            continue
        given = (*call.args, *(value for _, value in call.keywords))
        if not any(_holds(model, value, refs, location) for value in given):
            continue
        ref = call.ref
        if ref is None or ref.is_local or symbols.constructed_class(call) is not None:
            return True  # a method of an object (`cache.append(f)`), or a class that may hold it
        owner = ref.name.rpartition(".")[0]
        if symbols.bindings.get(Ref(owner)) or owner in symbols.classes:
            return True  # a method of a module-level object (`REGISTRY.add(f)`)
    for facts in module.functions:
        if not within(facts.qualname) or facts.qualname == function and not own_returns:
            continue
        if any(_holds(model, value, refs, location) for value in facts.returns):
            return True
    return False


def _passed_to_project_functions(made: Made, model: Model) -> bool:
    """A jitted function held in a local and handed only to functions of the
    project (`minimize(obj, x0)`), which use it for that call: it lives no
    longer than the run that made it. Handed to a class or to a library (a
    `defvjp`, a registry), it may be kept."""
    module = model.symbols.modules[made.path]
    if made.nested is not None:
        names = {made.nested.name, made.nested.qualname}  # a nested `def` is named by its qualname
    else:
        names = {
            binding.ref.name for binding in module.bindings
            if binding.value.location == made.application.location and binding.ref.is_local
        }
    calls = [
        call for enclosing, call in module.calls
        if enclosing == made.function and any(
            value.kind == f.NAME and value.ref is not None and not value.ref.attributes and value.ref.name in names
            for value in (*call.args, *(value for _, value in call.keywords))
        )
    ]
    return bool(names) and bool(calls) and all(
        model.symbols.lookup_function(call.ref) is not None and model.symbols.constructed_class(call) is None
        or _throwaway_derivative(model, made, call) is not None
        for call in calls
    )


# The methods of a `jax.custom_vjp`/`jax.custom_jvp` function that give it its derivative rules.
_DERIVATIVE_RULES = frozenset({"defvjp", "defjvp", "defjvps"})
_CUSTOM_DERIVATIVES = frozenset({"custom_vjp", "custom_jvp"})


def _throwaway_derivative(model: Model, made: Made, call: f.Value) -> f.FunctionFacts | None:
    """For `_f.defvjp(fwd, bwd)`: `_f`, when it is a `@jax.custom_vjp` (or
    `custom_jvp`) function nested in the same function and nothing keeps it
    past the run (called there, not returned, stored or passed on). It holds
    its rules as long as it lives: a jitted rule lives that one run too."""
    ref = call.ref
    if ref is None or ref.is_local or ref.attributes or ref.last not in _DERIVATIVE_RULES or ref.parent is None:
        return None
    owner = model.symbols.functions.get(ref.parent.name)
    if owner is None or owner.class_qualname or owner.qualname.rpartition(".")[0] != made.function:
        return None
    if not any(_custom_derivative(decorator) for decorator in owner.decorators):
        return None
    module = model.symbols.modules[made.path]
    if _kept(model, module, made.function, {Ref(owner.qualname)}, owner.location):
        return None
    return owner


def _custom_derivative(decorator: f.Value) -> bool:
    """`@jax.custom_vjp`, `@jax.custom_jvp`, or either under `functools.partial` (`nondiff_argnums=...`)."""
    if decorator.kind == f.CALL and decorator.dotted == PARTIAL and decorator.args:
        decorator = decorator.args[0]
    name = decorator.dotted
    return name.startswith("jax.") and name.rpartition(".")[2] in _CUSTOM_DERIVATIVES


def _derivative_rule_taking(made: Made, model: Model) -> str:
    """`_f.defvjp` for a jitted rule handed to a throwaway custom derivative `_f`, for the message; "" otherwise."""
    names = {made.nested.name, made.nested.qualname} if made.nested is not None else set()
    for enclosing, call in model.symbols.modules[made.path].calls:
        if enclosing == made.function and any(
            value.kind == f.NAME and value.ref is not None and value.ref.name in names
            for value in (*call.args, *(value for _, value in call.keywords))
        ):
            owner = _throwaway_derivative(model, made, call)
            if owner is not None:
                return f"{owner.name}.{call.ref.last}"
    return ""


def _made_anew(made: Made, model: Model) -> str | None:
    """How the message names the function given to the transform, when a new
    object is made each time that code runs; None for a function that lives on
    (a module-level function is the same object, and jit finds its cache again)."""
    if made.nested is not None:
        return f"the nested function `{made.nested.name}`"
    target = made.application.target
    if model.functions.bound_methods(made) or _library_bound_method(made, model):
        if made.transform.all_static:
            return None  # equinox hashes the function: a new bound method of the same object finds its cache
        return f"the bound method `{target.ref.parent.dotted if target.ref.is_local else target.ref.name.rpartition('.')[0].rpartition('.')[2]}.{target.ref.last}`"
    if _method_of_a_parameter(made, model) or _method_of_an_attribute(made, model):
        if made.transform.all_static:
            return None  # equinox hashes the function: a new bound method of the same object finds its cache
        return f"the bound method `{target.ref.parent.dotted}.{target.ref.last}`"
    if made.application.wrapped_by:  # `jit(vmap(fn))`: the vmap is a new function each time, with a new cache
        return f"`{made.application.wrapped_by.rpartition('.')[2]}(...)`, a new function object each time"
    if target.kind == f.NAME and target.ref is not None and not target.ref.is_local:
        outer = target.ref.name.rpartition(".")[0]
        if outer in model.symbols.functions and made.function.startswith(outer + ".") and outer != made.function:
            return None  # defined once by an enclosing function's run: the same object at every jit here
        function = model.symbols.functions.get(target.ref.name)
        if function is not None and function.loop_depth and not function.class_qualname:
            return f"the function `{function.name}` (its `def` runs on every loop turn)"
    held = _held_in_a_local(made, model)
    if held is not None:
        return held
    return model.values.per_instance_callable(target, "")


def _held_in_a_local(made: Made, model: Model) -> str | None:
    """`step = jax.vmap(_step)` (or a lambda, or a `partial`) then `jax.jit(step)`
    in the same function: every binding of the local, but the jit's own
    (`step = jax.jit(step)`), makes a new function each time it runs."""
    target = made.application.target
    if target.kind != f.NAME or target.ref is None or not target.ref.is_local or target.ref.attributes:
        return None
    values = [
        binding.value for binding in model.symbols.modules[made.path].bindings
        if binding.ref == target.ref and binding.value.location != made.application.location
    ]
    found = []
    for value in values:
        if value.kind == f.CALL and value.dotted in f.WRAPPERS:
            found.append(f"`{value.dotted.rpartition('.')[2]}(...)`, a new function object each time")
        elif value.kind in (f.LAMBDA, f.CALL) and (what := model.values.per_instance_callable(value, "")):
            found.append(what)
        else:
            return None
    return found[0] if found else None


def _a_bound_method(made: Made, model: Model) -> bool:
    """The function given to the transform is a method taken off an object."""
    return (
        bool(model.functions.bound_methods(made)) or _library_bound_method(made, model)
        or _method_of_a_parameter(made, model) or _method_of_an_attribute(made, model)
    )


def _library_bound_method(made: Made, model: Model) -> bool:
    """`jax.jit(model.apply)` with `model` an instance of a project class whose
    library base gives it `apply` (a linen module): a new bound method at each access."""
    target = made.application.target
    if made.nested is not None or target is None or target.kind != f.NAME or target.ref is None:
        return False
    owner = target.ref.parent
    return owner is not None and any(
        model.symbols.library_method(cls, target.ref.last) for cls in model.symbols.instance_classes(owner)
    )


def _method_of_a_parameter(made: Made, model: Model) -> bool:
    """`jax.jit(env.step)` with `env` a parameter of the function that jits it:
    whatever its class, a method taken off an object is a new bound method
    each time (a module is imported, never passed)."""
    target = made.application.target
    if target is None or target.kind != f.NAME or target.ref is None or not target.ref.is_local:
        return False
    ref = target.ref
    if len(ref.attributes) != 1 or ref.function != made.function:
        return False
    function = model.symbols.functions.get(made.function)
    if function is None or ref.name in ("self", "cls"):  # their classes are known: `bound_methods`
        return False
    return any(parameter.name == ref.name for parameter in function.parameters)


def _method_of_an_attribute(made: Made, model: Model) -> bool:
    """`jax.jit(self.env.step)` with `self.env` only ever bound to what a call
    returns (`self.env = envs.create(...)`), not to a function (`partial`, a
    transform, a factory of the project that returns one it defines): a
    method taken off that object is a new bound method on each access."""
    target = made.application.target
    if target is None or target.kind != f.NAME or target.ref is None or not target.ref.is_local:
        return False
    ref = target.ref
    function = model.symbols.functions.get(made.function)
    if len(ref.attributes) != 2 or function is None or not function.is_instance_method or ref.name != function.self_name:
        return False
    values = [write.value for write in model.symbols.self_writes(function.class_qualname, ref.attributes[0])]
    return bool(values) and all(
        value is not None and value.kind == f.CALL and value.dotted != PARTIAL
        and value.dotted.rpartition(".")[2] not in TRACING_NAMES
        and not model.functions.returns_a_function(value)
        for value in values
    )


def _made_before_the_loop(made: Made, model: Model) -> bool:
    """A nested `def` made once, outside the loop that jits it on every turn:
    the same function object each turn, whose cache jit finds again."""
    target = made.application.target
    if made.nested is not None or target is None or target.kind != f.NAME or target.ref is None or target.ref.is_local:
        return False
    nested = model.symbols.functions.get(target.ref.name)
    return nested is not None and nested.loop_depth == 0


class StaticArgumentVaries(Rule):
    """A static argument takes a new value on every turn of a loop, or on
    every call of code that runs again and again: JAX compiles the function
    once per value it takes.

    ## What it does

    Flags an argument at a static position of a jitted function
    (`static_argnums`, `static_argnames`; under `eqx.filter_jit` every argument
    that is not an array) when the call is made in a loop and the argument
    reads what changes from turn to turn:

    - the loop's target: `for n in range(100): power(x, n=n)`, also the count
      of `enumerate`;
    - an expression of it: `2 * n`, `sizes[i]`, `self.size_map[image_id]`,
      `cfg.width` for `cfg` in a list a parameter gives, `int(t)`;
    - a name the loop's body binds from it (`k = n + 1`), or updates from
      itself (`t += dt`, in a `while` loop too).

    Also flagged, outside any loop that changes it: a static argument holding
    `int()` or `float()` of a value computed from arrays' values in the same
    call (`float(w * jnp.abs(loss0))`, through names the function binds, or in
    an object built with it: `Cfg(weight=float(...))`), when that function runs
    again and again (in a loop of the project, or offered to a library's users,
    `fit()`): each call brings a new number.

    Also flagged: a static argument made anew and unequal to the last each
    time, in a loop or in code that runs again and again: a lambda or a
    `functools.partial` (compared by identity), an optax transformation
    (`opt=optax.adam(lr)`, `optax.chain(...)`, a NamedTuple of closures made
    per call), or what a project factory returns when every `return` of it
    builds a NamedTuple or frozen dataclass holding a function it makes
    (`make_optimizer(lr)` returning `Optimizer(update)` with `update` nested),
    given as written or through a local bound in the same loop (`opt =
    make_optimizer(lr)`).

    Under `eqx.filter_jit`, which makes every Python number static and traces
    arrays, only a value that is a Python number for sure is flagged: a
    `range` target, the count of `enumerate`, `int()`, `float()`, `round()` or
    `abs()` of something, arithmetic of those, and a name that starts as a
    Python number and is updated by such arithmetic each turn (`lr = 0.1`
    before the loop, `lr *= 0.99` in it). Reported at the argument.

    ## Why is this bad?

    A static argument is part of the key of the jitted function's cache: each
    new value misses the cache, and JAX traces and compiles the whole function
    again. A loop that hands a static argument its counter compiles once per
    turn, each compilation taking far longer than the call it serves, and the
    cache keeps every compiled version alive.

    Checked on jax 0.10.2 and 0.12.0.1, CPU: `for n in range(20): power(x,
    n=n)` with `n` static traces 20 times, where 1 is needed with `n` traced;
    a resize whose static output shape is looked up per image compiles once
    per distinct size; `eqx.filter_jit` given the loop's Python `int` traces
    once per turn, and once in all given `jnp.asarray(step)`.

    ## Example

    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.jit, static_argnames="n")
    def power(x, n):
        return x**n

    x = jnp.ones(3)
    for n in range(100):
        power(x, n=n)  # JAX402: 100 compilations, one per value of `n`
    ```

    ## Use instead

    Pass the value traced, and let the compiled code compute with it:

    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def power(x, n):
        return x**n

    x = jnp.ones(3)
    for n in range(100):
        power(x, n)  # 1 compilation
    ```

    When the value must stay static (it decides a shape or a Python branch),
    give it a few values: round it to a bucket (pad inputs to the next power
    of two), or move the work that needs it out of the jitted function. Under
    `eqx.filter_jit` pass `jnp.asarray(n)`.

    ## Fix

    No automatic fix: taking an argument out of the static ones changes what
    the function may do with it (a shape, a Python `if`), and bucketing its
    values is a design choice.

    ## Options

    JAX402 is reported under both profiles: a value that changes on every turn
    is the evidence of a compilation on every turn. `extra-transforms` adds
    your own compiling transforms.

    ## Known problems

    Not flagged, and fine:

    - a loop over values fixed for the run, each compiled once on purpose: a
      tuple, list or set written out (`for mode in ("train", "eval")`, also
      through a name bound to one), a `range` of at most 8 numbers, or what an
      object or a global holds (`for name in cfg.impurity_names`,
      `for layer in self.layers`). Flagged are loops over a longer `range`,
      over a parameter, or over data the function computes (`ids = out["id"]`
      then `for i in ids`, a loop's own target), and `while` loops;
    - a flag: a comparison, `not`, `bool()` (`with_metrics = i % 10 == 0`)
      takes two values, so compiles twice at most;
    - a static argument that does not change in the loop (bound before it, or a
      constant);
    - a value read off an array's shape (`x.shape[0]`, `len(batch)`, `x.ndim`):
      a new shape compiles again anyway, static or not;
    - tests (a test compiles each value it checks, on purpose), and code that
      runs only while JAX traces (a loop in a jitted function runs once per
      compilation);
    - a number computed from configuration or a shape (`int(x.shape[0])`,
      `float(cfg.weight * 2)`, `int(jnp.ceil(cfg.width / 2))`), or from data in
      code that runs once (a script's `main()`, set-up code).

    Not flagged, but compiles again just the same: `int(loss)` of an array
    that jaxcheck does not see computed with `jax.numpy` in the same function
    (a parameter, the result of a project function), values the loop reads
    through a comprehension or a lambda, and a loop over a configured list that
    is long or grows.

    ## References

    - JAX docs, "Just-in-time compilation", "Marking arguments as static":
      "If the function is called with a different static value, it will be
      compiled again."
      https://docs.jax.dev/en/latest/jit-compilation.html#marking-arguments-as-static
    - JAX issue #2521 and its many duplicates: a jitted function that
      recompiles on every iteration because a loop variable is static.
    """

    code = "JAX402"
    name = "static-argument-varies"
    summary = "a static argument takes a new value on every loop turn or every call, so JAX compiles once per value"
    facts = ("static-key",)

    def check(self, model: Model):
        changing = {
            path: {value.location: value for value in module.loop_values}
            for path, module in model.symbols.modules.items()
            if module.loop_values
        }
        functions = model.functions
        seen = set()
        for site in model.sites.calls:
            yield from self._fresh_objects(site, model, seen)
            values = changing.get(site.path)
            if values is None:
                continue
            for parameter, argument in site.static_arguments():
                value = values.get(argument.location)
                if value is None or (site.path, argument.location) in seen:
                    continue
                if value.fixed or value.kind == f.A_FLAG:
                    continue  # a few values, each compiled once on purpose: written out, configured, True or False
                transform = site.target.spec.transform
                if transform.all_static and value.kind != f.A_NUMBER:
                    continue  # equinox traces arrays: only a Python number is static for sure
                if site.enclosing and (functions.is_test(site.enclosing) or functions.runs_only_while_tracing(site.enclosing)):
                    continue
                if value.over == f.PER_CALL and not _runs_again(site.enclosing, model):
                    continue  # new at each call of code that runs once per program: one compilation
                if not site.enclosing and functions.in_test_file(site.path):
                    continue
                seen.add((site.path, argument.location))
                yield self.finding(site.path, argument.location, *_varies_message(site, parameter, value, model))

    def _fresh_objects(self, site, model: Model, seen: set):
        """A static argument made anew each time and unequal to the last: a
        lambda or `functools.partial` (compared by identity), or what a call
        builds from functions it makes (`opt=optax.sgd(lr)`, a project factory
        returning a NamedTuple of closures), in a loop or in code that runs
        again and again: one compilation per call."""
        functions = model.functions
        if site.enclosing and (functions.is_test(site.enclosing) or functions.runs_only_while_tracing(site.enclosing)):
            return
        repeated = set(model.symbols.modules[site.path].repeated)
        for parameter, argument in site.static_arguments():
            built = _built_here(argument, model)
            made = _fresh_object(built, model, site.target.spec.transform.all_static)
            if made is None or (site.path, argument.location) in seen:
                continue
            in_loop = site.call.location in repeated or argument.location in repeated
            if built is not argument and in_loop and built.location not in repeated:
                continue  # made once, before the loop that passes it: one compilation per run of that loop
            if in_loop:
                when = "on every turn of the loop it is in"
            elif _runs_again(site.enclosing, model):
                when = f"on every call of `{model.symbols.short_name(site.enclosing)}`, which runs again and again"
            else:
                continue
            seen.add((site.path, argument.location))
            function = model.symbols.short_name(site.target.function.qualname)
            what, why = made
            yield self.finding(
                site.path,
                argument.location,
                f"static argument `{parameter}` of `{function}` is {what} {when}: {why}, so it never equals the key "
                f"of an earlier compilation, and `{site.target.spec.transform.name}` compiles `{function}` again "
                "every time",
                "Make it once (before the loop, in `__init__`, or at module level) and pass that same object",
            )


def _built_here(argument: f.Value, model: Model) -> f.Value:
    """The value a local name holds when one statement of its function binds it
    (`tx = make_tx(lr)` before `step(g, tx)`), else the argument itself."""
    ref = argument.ref
    if argument.kind != f.NAME or ref is None or not ref.is_local or ref.attributes:
        return argument
    bindings = model.symbols.bindings.get(ref, ())
    return bindings[0].value if len(bindings) == 1 else argument


def _fresh_object(argument: f.Value, model: Model, all_static: bool) -> tuple[str, str] | None:
    """(what the argument is, why it is unequal to the last one), for a message,
    when each evaluation makes a new object that is never equal to the last."""
    if argument.kind == f.LAMBDA:
        return "a new lambda", "a function compares by identity"
    if argument.kind != f.CALL:
        return None
    if argument.dotted == PARTIAL:
        return "a new `functools.partial`", "a partial compares by identity"
    if all_static:
        return None  # equinox flattens a NamedTuple into its leaves
    kind = FRESH_OBJECTS.get(argument.dotted) or model.values.fresh_class_name(argument)
    if kind is None:
        return None
    return f"a new {kind} from `{_callee_as_written(argument)}(...)`", "its functions are new closures"


def _callee_as_written(call: f.Value) -> str:
    """`optax.sgd` for a library's function, `make_opt` for the project's."""
    if call.dotted in FRESH_OBJECTS:
        return ".".join(call.dotted.split(".")[-2:])
    return call.ref.last if call.ref is not None else "..."


def _runs_again(function: str, model: Model) -> bool:
    """A function that runs more than once in a program: in a loop of the project (a few calls deep),
    or offered to a library's users; not code that builds or sets up an object."""
    functions = model.functions
    return bool(function) and not sets_up(function.rpartition(".")[2]) and (
        function in functions.called_repeatedly or function in functions.run_again
    )


def _varies_message(site, parameter: str, value: f.LoopValue, model: Model) -> tuple[str, str]:
    names = ", ".join(f"`{name}`" for name in value.names)
    if value.over == f.PER_CALL:
        return _per_call_message(site, parameter, value.names, model)
    loop = "the `while` loop" if value.over == "while" else f"the loop over `{value.over}`"
    function = model.symbols.short_name(site.target.function.qualname)
    transform = site.target.spec.transform
    how_many = (
        f"{value.turns} compilations where 1 would do" if value.turns is not None else "one compilation per turn at worst"
    )
    if transform.all_static:
        message = (
            f"{names} changes on every turn of {loop} (line {value.loop.line}) and reaches `{function}` as a Python "
            f"number, which `{transform.name}` makes static: it compiles `{function}` once per value, {how_many}"
        )
    else:
        message = (
            f"static argument `{parameter}` of `{function}` reads {names}, which changes on every turn of {loop} "
            f"(line {value.loop.line}): `{transform.name}` compiles `{function}` once per value, {how_many}"
        )
    if transform.all_static:
        fix = f"Pass it as an array (`jnp.asarray(...)`): `{transform.name}` makes every Python number static"
    else:
        fix = (
            f"Pass it traced (take `{parameter}` out of the static arguments), or give it a few fixed values "
            "(round or bucket it)"
        )
    return message, fix


def _per_call_message(site, parameter: str, names: tuple[str, ...], model: Model) -> tuple[str, str]:
    function = model.symbols.short_name(site.target.function.qualname)
    caller = model.symbols.short_name(model.functions.runs_again_through(site.enclosing))
    transform = site.target.spec.transform
    number = f"`{names[-1][:-2]}(...)` of arrays' values"
    held = f"`{names[0]}` holds {number}" if len(names) > 1 else number.capitalize()
    what = f"reaches `{function}` as a Python number" if transform.all_static else f"is static argument `{parameter}` of `{function}`"
    message = (
        f"{held}, computed anew at each call of `{caller}`, which runs again and again, and {what}: "
        f"`{transform.name}` compiles `{function}` again for each new value, one compilation per call at worst"
    )
    if transform.all_static:
        fix = f"Pass it as an array (`jnp.asarray(...)`): `{transform.name}` makes every Python number static"
    else:
        fix = f"Pass it traced (take `{parameter}` out of the static arguments)"
    return message, fix
