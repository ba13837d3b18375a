"""JAX204: a jitted function reads a global or closed-over value that changes after the first call."""

from __future__ import annotations

from jaxcheck.findings import Related, place_named
from jaxcheck.model.project import Model
from jaxcheck.rules.base import Rule


class JittedReadsChangingGlobal(Rule):
    """A jitted function reads a module-level or closed-over value, and the
    project changes that value after calling the function: the compiled
    function keeps the value it read when it was traced.

    ## What it does

    Flags a change to a value that a jitted function reads while it is traced,
    when the code shows the change comes after a call of that function:

    - the value is a module-level name bound by assignment (`SCALES = {...}`,
      `SCALE = 1.0`), in the function's module or imported from another
      module of the project, an attribute a project class's body assigns
      (`Config.scale`, read off the class), or a local of the function a
      nested jitted function is defined in (a closure);
    - it is read by the jitted function, by a function nested in it, or by a
      project function they call (three calls deep);
    - the change is the name bound again (`SCALE = 4.0` at module level, or
      under `global SCALE` in a function, or `Config.scale = 3.0`), an item
      written (`SCALES["a"] = 4.0`, `del`), an attribute set (`CONFIG.scale =
      3`), or a mutating method called on it (`.append`, `.update`, `.pop`,
      ...);
    - one scope (the module body or a function) first calls the jitted
      function, or a function that calls it, and later makes the change, or
      calls a function that makes it;
    - and a call after the change can use what the first call compiled: a
      later call in that scope, the next turn of a loop the first call is
      in, the scope run again (called in a loop, or a public function of a
      library, for a module-level value, which outlives it), or, for a change
      made on import, the library's users calling its public jitted function.

    The jit-like transforms are those that keep a compiled function: `jax.jit`,
    `pjit`, `jax.pmap`, `nnx.jit`, `eqx.filter_jit` and the others listed for
    JAX101, in every spelling, and your `extra-transforms`.

    Reported on the change; the message names the jitted function and the call
    the change follows (`path:line`).

    ## Why is this bad?

    `jax.jit` runs the Python of a function once per compilation. A global or
    a closed-over variable is not an argument: its value, read during that run,
    is compiled in as a constant, and the cache key (the function, the
    arguments' shapes and dtypes, the static arguments) does not change when
    the value does. Later calls run the old program and return results
    computed with the old value, with no error.

    Checked: the example prints 1.0, then 1.0 again after `SCALES["a"] =
    4.0`, where 4.0 is right.

    ## Example

    ```python
    import jax

    SCALES = {"a": 1.0}

    @jax.jit
    def scaled(x):
        return x * SCALES["a"]

    print(scaled(1.0))  # 1.0
    SCALES["a"] = 4.0  # JAX204 is reported on this line
    print(scaled(1.0))  # 1.0 again: the program compiled with 1.0
    ```

    ## Use instead

    Pass the value as an argument: an array or a Python float is traced, so the
    same compiled program reads the new value.

    ```python
    import jax

    SCALES = {"a": 1.0}

    @jax.jit
    def scaled(x, scale):
        return x * scale

    print(scaled(1.0, SCALES["a"]))  # 1.0
    SCALES["a"] = 4.0
    print(scaled(1.0, SCALES["a"]))  # 4.0
    ```

    A value that steers the trace (read by an `if`, used as a shape) goes in
    as a static argument instead (`static_argnames`): a new value compiles
    again. A value set once, before the first call, and never changed, is
    fine where it is.

    ## Fix

    No automatic fix: passing the value as an argument changes the function's
    signature and every call of it.

    ## Options

    JAX204 is reported under both profiles: the change it names comes after a
    call of the jitted function, so a later call returns a stale result. A
    library's public function or context manager that rebinds a module-level
    value its jitted code reads (`def set_radius(r): global RADIUS; RADIUS =
    r`, `with fixed_size(n)`) is reported too (latent): its users call it
    whenever they like, after the first trace as well. So is one whose value
    is read by a public module-level function of array code no jitted
    function of the library reaches (`crop_view` calls `jnp`): its users
    jit it, or pass it to code they jit. An entry added to a registry is
    not: no earlier trace read it.
    `extra-transforms` adds your own compiling transforms.

    ## Known problems

    Not flagged, and fine: a value set at import time or in setup code that
    runs before any call (a registry filled by decorators, a constant set
    once), a value read outside the trace (by the caller, before the call),
    a value changed only before the first call in the same scope.

    Not flagged, but stale just the same, since jaxcheck needs the order of
    the call and the change in the code: a change made by code that runs
    later for another reason (a callback), a value of a library module, a
    value reached through a
    container or an alias (`table = SCALES; table["a"] = 4.0`). A value of
    another module is followed when it is changed through that module
    (`config.SCALE = 4.0` after `from pkg import config`), in any module
    that calls the jitted function first.

    Not flagged, and fine: a change after the last call that can use the
    compiled function (a test that changes a value, or deletes it, and never
    calls again).

    May be reported though the result is right: jaxcheck does not follow
    `jax.clear_caches()`, nor a later call whose arguments have new shapes or
    types, which traces again and reads the new value.
    Put `# noqa: JAX204` on the reported line.

    ## References

    - JAX docs, "🔪 JAX - The Sharp Bits 🔪", "Pure functions": a jitted
      function that reads a global keeps the value it had when it was traced.
      https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions
    - JAX FAQ, "How to use `jit` with methods?": the cache key is the
      function, the argument shapes and dtypes and the static arguments.
      https://docs.jax.dev/en/latest/faq.html
    """

    code = "JAX204"
    name = "jitted-reads-changing-global"
    summary = "a jitted function reads a global or closed-over value that changes after the first call"
    facts = ("baked-global",)
    whole_program = True

    def check(self, model: Model):
        symbols = model.symbols
        for item in model.constants.baked():
            name = symbols.short_name(item.jitted.function)
            reader = symbols.short_name(item.read_by)
            via = "" if item.read_by == item.jitted.function else f" (through `{reader}`)"
            variable = model.constants.shown_name(item.variable)
            if item.offered and item.users_jit:
                setter = symbols.short_name(item.setter)
                yield self.finding(
                    item.change_path,
                    item.change,
                    f"`{variable}` is read by the public `{reader}`, array code its users trace under jit, and "
                    f"compiled in as a constant; `{item.change_text}` here, in `{setter}`, which the library offers "
                    "its users, rebinds it: a user who calls it after the first trace keeps getting results for the "
                    "old value",
                    f"Pass `{variable}` (or what is read of it) as an argument of `{reader}`, or make it a static "
                    "argument of the functions that read it",
                    (Related(item.call_path, item.call.line, item.call.column, f"`{reader}` reads it here"),),
                )
                continue
            if item.offered:
                setter = symbols.short_name(item.setter)
                yield self.finding(
                    item.change_path,
                    item.change,
                    f"`{variable}` is read by the jitted `{name}`{via} when it is traced, and compiled in as a "
                    f"constant; `{item.change_text}` here, in `{setter}`, which the library offers its users, "
                    "rebinds it: a user who calls it after the first trace keeps getting results for the old value",
                    f"Pass `{variable}` (or what is read of it) as an argument of the jitted function, or make it "
                    "a static argument of the functions that read it",
                    (Related(item.call_path, item.call.line, item.call.column, f"`{name}` is jitted here"),),
                )
                continue
            if item.call == item.jitted.location:
                factory = symbols.short_name(item.jitted.function.rpartition(".")[0])
                after = (
                    f"here is handed out with `{name}` (made at {place_named(item.call_path, item.call.line, item.call.column)}) to the callers of "
                    f"`{factory}`, who run it after calling `{name}`"
                )
            else:
                after = f"here runs after `{name}` was called at {place_named(item.call_path, item.call.line, item.call.column)}"
            yield self.finding(
                item.change_path,
                item.change,
                f"`{variable}` is read by the jitted `{name}`{via} when it is traced, and compiled in as a "
                f"constant; `{item.change_text}` {after}, so later calls keep the old value",
                f"Pass `{variable}` (or what is read of it) as an argument of the jitted function",
                (Related(item.call_path, item.call.line, item.call.column, f"`{name}` is called (traced) here"),),
            )
