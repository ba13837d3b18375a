"""JAX101, JAX102, JAX106: values at static positions must be immutable and hash by value.

JAX compiles a function once per set of static values and finds the compiled
function again by their `hash` and `==`, keeping the objects themselves as
keys. A static value that changes after the first call, or that hashes by
identity, or that cannot be hashed, breaks that cache.
"""

from __future__ import annotations

import re

from dataclasses import replace

from jaxcheck.model.classes import IDENTITY, UNHASHABLE, VALUE
from jaxcheck.model.evidence import (
    Staleness,
    built_by_users,
    built_repeatedly,
    class_state_change,
    later_changes,
    public_state_read,
    runs_repeatedly,
)
from jaxcheck.model.jax_versions import STALE, Target, outcomes
from jaxcheck.model.project import Model
from jaxcheck.model.state import Reads
from jaxcheck.model.static_uses import FIELD, StaticUse
from jaxcheck.findings import Related, place_named
from jaxcheck.rules.base import ClassRule, Rule, about_uses, after_key_change, related_change, related_uses, uses_text

_UNHASHABLE_ERROR = "`ValueError: Non-hashable static arguments are not supported`"
_INSTEAD = {
    "list": "a tuple",
    "dict": "a tuple of (key, value) pairs or a frozen dataclass",
    "set": "a frozenset",
    "bytearray": "bytes",
    "array": "a tuple of Python numbers, or pass the array as a regular (traced) argument",
    "namespace": "a frozen dataclass or NamedTuple of what the function reads (`Config(scale=args.scale)`), "
    "or those values as static arguments",
    "ConfigDict": "a `FrozenConfigDict` (`ml_collections.FrozenConfigDict(config)`, hashed by value), or the "
    "values the function reads as static arguments",
    "DictConfig": "a frozen dataclass or NamedTuple of what the function reads (`Config(lr=cfg.lr)`), or those "
    "values as static arguments",
    "fiddle Config": "a frozen dataclass or NamedTuple of what the function reads, or those values as static "
    "arguments",
    "scipy sparse matrix": "its arrays (`m.data`, `m.indices`, `m.indptr`) as regular (traced) arguments and its "
    "shape as the static one, or a `jax.experimental.sparse.BCOO`",
}


def _hashes_once(use: StaticUse) -> bool:
    """The use's transform (or the outermost use's) hashes keys once on every release."""
    return use.outermost.spec.transform.hashes_once


class MutableStatic(Rule):
    """A mutable object is a static argument of `jax.jit` and the jitted function
    reads its state: once the object changes, JAX silently reuses the function
    compiled for the old state (on JAX 0.9 to 0.10, or on any release when it
    hashes by identity), or compiles again for every change (on the other
    releases, when it hashes by value).

    ## What it does

    Flags a class when all of these hold:

    - An instance reaches a static position of a caching transform, in any
      spelling (`@jax.jit(static_argnums=...)`, `@partial(jax.jit, ...)`,
      `jax.jit(f, static_argnames=...)`, aliases, negative argnums): a static
      parameter annotated with the class, a static argument `Cls(...)` (or a
      name bound to one) at a call, given by keyword, through `**{...}`, or as
      an element of a static tuple or frozenset (hashed through its
      elements), a bound method `obj.method` of it passed as a static
      argument (or `self.cost_fn`, where every `self.cost_fn = ...` stores
      one), an object of a class `jax.tree_util.register_static` registers
      (static at any position), or `self` of a method jitted with argument 0 or `"self"`
      static. A call is also `functools.partial(step, cfg=cfg)` (each call of
      the partial passes `cfg`) and `step.lower(x, cfg=cfg)` (or `.trace`,
      `.eval_shape`); a parameter of a plain function passed on
      (`def run(x, cfg): return step(x, cfg=cfg)`) holds what the callers of
      that function pass, one call up. Under `eqx.filter_jit`/`filter_pmap` an object of a plain class
      is static wherever it sits in an argument, in the field of an
      `eqx.Module` too; under `nnx.jit` so is one held in an attribute of an
      `nnx.Module` argument.
    - The class is mutable: a plain class that does not define `__setattr__`, a
      `@dataclass` without `frozen=True` (`unsafe_hash=True` included), or a
      subclass of one. (A plain `@dataclass` is unhashable: that is JAX106.)
    - The jitted function reads its state: `cfg.attr`, a method call, passing
      the object on; for `self`, also through the `self.helper()` it calls.
    - The default profile also needs the change: code that changes that state
      after the object became static (see Options). State held by an object in
      a field of the static one counts too, even when the static class itself
      is frozen, and is reported at the outermost static class.

    Reported on each `self.attr = ...` line of a method that changes an
    attribute the jitted function reads (`__init__`, `__post_init__` and the
    helpers they call are construction, not mutation); otherwise on the `class`
    line, with the static use and the change (`cfg.scale = ...` at
    `path:line`) named in the message. The class may be defined in another
    module of the project than the static use. The message states the
    consequence on the JAX releases the project targets (`target-jax-version`).

    ## Why is this bad?

    `jax.jit` looks compiled functions up by the static arguments' `hash` and
    `==`, and keeps the object it was first called with as the cache key.
    Changing that object does not make JAX compile again: later calls return the
    old result, with no error. On JAX 0.9 to 0.10 a value hash
    (`unsafe_hash=True`, your own `__hash__`/`__eq__`) does not help.

    Up to JAX 0.8 and again from 0.11 on, `jax.jit` (and `pjit`, `nnx.jit`,
    `make_jaxpr`, `eqx.filter_jit`, which cache the same way) hashes a static
    key when it stores it. A class that hashes by value then gives the right
    result after a change, but compiles again for every change, and the cache
    keeps an entry keyed on an object that no longer matches its stored hash.
    The same code is stale on jax 0.9.0 to 0.10.2, so it is still reported,
    with the consequence that holds on the JAX your project targets (both,
    with their releases, when it admits releases of both kinds). A class that
    hashes by identity is stale on every release. `jax.pmap`, `jax.checkpoint`
    and `eqx.filter_pmap` hash a key once, when they store it, on every
    release: a value-hashed key changed afterwards misses their cache and
    compiles again, an identity-hashed one is stale.

    On jax 0.9.0 to 0.10.2 the example prints 4.0 then 4.0 instead of 4.0 then
    6.0 (afterwards even a fresh `Config(scale=3)` gets 4.0); on jax 0.4.30 to
    0.8.3 and 0.11.0 to 0.12.0.1 it prints 4.0 then 6.0 and traces twice. The
    TORAX Vehicle (which hashes by identity) prints 2 then 2 instead of 2 then 4
    on every release; the FAQ's CustomClass with `__hash__`/`__eq__` gives 6,
    not 3, after `c.mul = False` on jax 0.9.0 to 0.10.2.

    ## Example

    ```python
    import dataclasses
    from functools import partial
    import jax

    @dataclasses.dataclass(unsafe_hash=True)
    class Config:  # JAX101 is reported on this line
        scale: int

    @partial(jax.jit, static_argnames="cfg")
    def step(x, cfg):
        return x * cfg.scale

    cfg = Config(scale=2)
    print(step(2.0, cfg=cfg))  # 4.0
    cfg.scale = 3
    print(step(2.0, cfg=cfg))  # jax 0.9 to 0.10: 4.0 again, the function compiled for scale=2
                               # other releases: 6.0, compiled again; the first entry is keyed on the changed cfg
    ```

    ## Use instead

    Make the class immutable and build a changed copy: it hashes differently,
    so JAX compiles for it.

    ```python
    import dataclasses
    from functools import partial
    import jax

    @dataclasses.dataclass(frozen=True)
    class Config:
        scale: int

    @partial(jax.jit, static_argnames="cfg")
    def step(x, cfg):
        return x * cfg.scale

    cfg = Config(scale=2)
    print(step(2.0, cfg=cfg))  # 4.0
    cfg = dataclasses.replace(cfg, scale=3)  # a new, different static value
    print(step(2.0, cfg=cfg))  # 6.0: compiled again for scale=3
    ```

    A setter becomes a method returning a new object. State that must change in
    place is not static: pass it as a regular argument, as a registered pytree.

    ## Fix

    Unsafe (`--fix --unsafe-fixes`): a `@dataclass` class (or attrs `@define`,
    `@attr.s`) gets `frozen=True`, and loses `unsafe_hash=True` and `eq=False`,
    so that it hashes by value and cannot change. Unsafe because the rule fires
    on a class whose state changes after the first call: that change now raises
    `FrozenInstanceError`, and is to be rewritten as a new object (`cfg =
    dataclasses.replace(cfg, scale=3)`).

    Not offered for a plain class, nor where freezing would surely break the
    program or leave the finding: a class whose own methods assign `self.x`
    (`__post_init__`, a setter: a frozen instance raises at once), one that
    writes its own `__eq__`, `__hash__`, `__setattr__` or `__delattr__`, one
    with a base that is not a frozen dataclass of the same file, or one with a
    subclass in the same file that is a non-frozen dataclass (a frozen dataclass
    and a non-frozen one cannot inherit from each other). A subclass in another
    file is not seen: that is one more reason the fix is unsafe.

    ## Options

    The default profile reports JAX101 when the code changes state the jitted
    function reads after the object became static:

    - an assignment in a method of the class that runs after objects are
      built: one the project calls outside construction (any class's
      `__init__`, `setup` and their helpers, a classmethod factory), or, never
      called in the project, a public method of a public class, which the
      library's users may call;
    - an assignment from outside (`cfg.scale = 3`), unless it comes before the
      static use in the same function, or is made on another object (two names
      each bound to a new `Config(...)`);
    - an in-place change (`.append(...)`, an item assignment) of a list, dict,
      set or array the object holds;
    - any of these on an object held in its fields, up to three fields deep;
    - *latent*: nothing in the project changes it, but the jitted function
      reads public state (attributes without a leading `_` set while the
      object is built, public fields, through properties and helpers too) of
      a class the library's users build: public, defined at module level in
      a module of the library, not in a test, an example, a benchmark, a
      script or a notebook; built by users, not only by another object of
      the library from its own state (a class another `__init__` builds
      only from what its own caller gave, `Step(task, n)` in a wrapper, is
      still built by users; the copies a class's own methods make of an
      object, `geometry.with_size(n)`, do not count). Users who set `env.size = 8` after the first call
      meet the consequence: the finding, at the class, names the attributes
      read and what that change does on the target JAX release. Where the
      project itself changes some of that state, the message names that
      change first.

    It is not reported for a class that hashes by value when every static use
    is under `jax.pmap`, `jax.checkpoint`/`jax.remat`, `nnx.pmap`, `nnx.remat`
    or `eqx.filter_pmap`: the changed key misses their cache, which is right.

    `strict` also reports, as the design standard asks, a mutable class whose
    state the jitted function reads when nothing changes it after the first
    call, and a mutable class held in a field of a static object (on its own
    `class` line, naming the field).

    `target-jax-version` chooses the consequence the message states (stale,
    compiles again, or both with the releases); `static-bases` names bases
    whose subclasses are immutable.

    ## Known problems

    Not flagged, and fine:

    - frozen dataclasses, `NamedTuple`, `Enum` members, classes that block
      assignment with `__setattr__`, and their subclasses;
    - primitives (`int`, `float`, `str`, `bool`, `None`), tuples, frozensets and
      module-level functions as static arguments;
    - a mutable class whose state the jitted function never reads (JAX102 may
      still apply if it hashes by identity).

    Not flagged, since jaxcheck never guesses: classes it cannot see into (an
    unknown base class, decorator or metaclass, or a class from an installed
    package). Not flagged by the default profile, but stale just the same:
    changes it does not follow, such as `setattr(obj, name, ...)` with a name
    that is not a literal, an assignment through a chain of fields or an alias
    of one (`cfg.solver.dt = 0.2`, `inner = cfg.solver; inner.dt = 0.2`; a
    setter of `Solver` called there is followed), or state more than three
    fields deep.

    May be reported though the result is right: jaxcheck does not know the
    order in which functions run, so a change in a function that only ever runs
    before the first jitted call counts; a public setter nobody calls counts
    too, and so does a public field of a public `@dataclass` that is not
    frozen (a library's users are invited to set it). If the object never changes after its first jitted call, put
    `# noqa: JAX101` on the reported line, or set `ignore = ["JAX101"]` or
    `per-file-ignores = { "tests/*" = ["JAX101"] }` in `[tool.jaxcheck]`.

    ## References

    - JAX FAQ, "How to use `jit` with methods?": Strategy 2, "Marking `self` as
      static" (fine "so long as you never mutate your object"), and Strategy 3,
      "Making `CustomClass` a PyTree". https://docs.jax.dev/en/latest/faq.html
    - `jax.jit` docstring on `static_argnums`: static arguments should be
      hashable (`__hash__` and `__eq__`) and immutable.
      https://docs.jax.dev/en/latest/_autosummary/jax.jit.html
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes").
    - StackOverflow, "Using Jax Jit on a method as decorator versus applying jit
      function directly".
    """

    code = "JAX101"
    name = "mutable-static"
    summary = "a mutable class reaches a static position and the jitted function reads its state"
    facts = ("changed-value-key", "identity-key", "hashes-once")

    def check(self, model: Model):
        for qualname, uses in model.static_uses_by_class.items():
            traits = model.classes.traits(qualname)
            if traits is None:
                continue
            path = model.symbols.path_of[qualname]
            # An unhashable class is JAX106's, but a bound method of it hashes by its object's identity.
            top = [
                use for use in uses
                if use.via != FIELD and use.reads_state and (use.method or traits.hashing != UNHASHABLE)
            ]
            yield from about_uses(self._outermost(model, qualname, path, traits, top), top)
            nested = [use for use in uses if use.via == FIELD and model.hash_consulted(use)]
            if nested and traits.mutable and traits.has_state and traits.hashing != UNHASHABLE:
                # Standard only: its state is the hazard of the object holding it.
                cls = model.symbols.classes[qualname]
                message = f"`{cls.name}` is mutable ({traits.mutable_because}) but {uses_text(nested, model)}"
                finding = self.finding(
                    path, cls.location, message, _fix(cls.name), related_uses(nested, model), evidence=False
                )
                yield from about_uses([finding], nested)
        yield from self._class_objects(model)

    def _class_objects(self, model: Model):
        """A jitted classmethod whose `cls` is static keys its cache on the class
        object, which hashes by identity: a class attribute it reads and the
        project reassigns (`Model.scale = 3.0`) leaves the compiled code stale."""
        seen = set()
        for item in model.functions.compiled:
            function, spec = item.function, item.application.spec
            if spec is None or not function.is_classmethod or function.qualname in seen:
                continue
            name = function.parameters[0].name
            if 0 not in spec.argnums and name not in spec.argnames:
                continue
            seen.add(function.qualname)
            change = class_state_change(model, function)
            if change is None:
                continue
            write, path = change
            owner = function.class_qualname
            cls = model.symbols.classes[owner]
            finding = self.finding(
                model.symbols.path_of[owner],
                cls.location,
                f"`{cls.name}` itself is static argument `{name}` of `{model.symbols.short_name(function.qualname)}` "
                f"under `{spec.transform.name}` ({place_named(item.path, spec.location.line, spec.location.column)}), and after "
                f"`{cls.name}.{write.attribute} = ...` at {place_named(path, write.location.line, write.location.column)} the next call silently reuses "
                "the function compiled for the old value",
                f"Pass `{name}.{write.attribute}` to the jitted function as a regular (traced) argument, or keep "
                "class attributes constant",
                (
                    Related(item.path, spec.location.line, spec.location.column, f"`{name}` is static here"),
                    Related(path, write.location.line, write.location.column, f"`{cls.name}.{write.attribute}` changes"),
                ),
            )
            yield replace(finding, about=tuple(sorted({item.path, path})))

    def _outermost(self, model: Model, qualname: str, path: str, traits, uses: list[StaticUse]):
        """The class as the static object itself: stale through its own state or its fields'."""
        if not uses:
            return
        cls = model.symbols.classes[qualname]
        reads = Reads()
        for use in uses:
            reads |= use.reads
        by_value = not any(use.method for use in uses)  # a bound method hashes by its owner's identity
        stale = [
            item
            for item in later_changes(model, qualname, reads, uses)
            if (item.holder != qualname or traits.mutable)
            and not (by_value and _key_changes(model, qualname, item) and all(_hashes_once(use) for use in uses))
        ]
        where = uses_text(uses, model)
        related = related_uses(uses, model)
        target = model.target
        inside = sorted(
            {item.change.location: item for item in stale if item.change.inside and item.holder == qualname
             and item.change.file == path}.values(),
            key=lambda item: item.change.location,
        )
        for item in inside:
            consequence = _after_change(self._outcomes(model, qualname, item, target, by_value), "the change", target)
            yield self.finding(
                path,
                item.change.location,
                f"`{cls.name}` is mutable and this method changes `self.{'.'.join(item.change.path)}` after "
                f"construction, but {where}: {consequence}",
                _fix(cls.name),
                related,
            )
        if inside:
            return
        if stale:
            # The project's own change first: it is the real bug; a user's is one that may come.
            item = min(stale, key=lambda item: (item.change.invited, item.change.file, item.change.location))
            change = item.change.shown
            consequence = _after_change(self._outcomes(model, qualname, item, target, by_value), change, target)
            if item.holder == qualname:
                what = f"`{cls.name}` is mutable ({traits.mutable_because})"
            else:
                held = item.holder.rpartition(".")[2]
                what = f"`{cls.name}` holds a mutable `{held}` in `{'.'.join(item.read[:-1]) or item.read[0]}`, whose state the traced code reads"
            yield self.finding(
                path, cls.location, f"{what} but {where}: {consequence}", _fix(cls.name),
                (related_change(item.change), *related),
            )
        elif traits.mutable and traits.has_state and not (by_value and traits.hashing == VALUE and all(map(_hashes_once, uses))):
            public = public_state_read(model, qualname, reads) if built_by_users(model, qualname) else []
            if public:  # latent: its users set what the traced code reads
                shown = ", ".join(f"`{name}`" for name in public[:_NAMED_ATTRIBUTES])
                more = len(public) - _NAMED_ATTRIBUTES
                shown += f" and {more} more" if more > 0 else ""
                kinds = outcomes("changed-value-key", target) if by_value and traits.hashing == VALUE else (STALE,)
                change = f"a user's `{instance_name(cls.name)}.{public[0]} = ...`"
                yield self.finding(
                    path,
                    cls.location,
                    f"`{cls.name}` is mutable ({traits.mutable_because}) but {where}, and the traced code reads its "
                    f"public {shown}: {_after_change(kinds, change, target)}",
                    _fix(cls.name),
                    related,
                )
                return
            yield self.finding(
                path,
                cls.location,
                f"`{cls.name}` is mutable ({traits.mutable_because}) but {where}; nothing here changes it after "
                "the first call, but a change would not be seen",
                _fix(cls.name),
                related,
                evidence=False,
            )

    @staticmethod
    def _outcomes(model: Model, qualname: str, item: Staleness, target: Target, by_value: bool) -> tuple[str, ...]:
        return outcomes("changed-value-key", target) if by_value and _key_changes(model, qualname, item) else (STALE,)


def _key_changes(model: Model, qualname: str, item: Staleness) -> bool:
    """The change changes the static object's hash: every object from it down to
    the changed one hashes by value (an identity hash does not see the change)."""
    classes = {qualname, item.holder}
    return all((traits := model.classes.traits(cls)) is not None and traits.hashing == VALUE for cls in classes)


def _fix(name: str) -> str:
    return (
        f"Make `{name}` immutable (`@dataclass(frozen=True)`, and `dataclasses.replace` for a changed copy) "
        "or pass it as a pytree argument instead of a static one"
    )


_NAMED_ATTRIBUTES = 3  # how many public attributes a latent finding names before "and N more"


def instance_name(cls: str) -> str:
    """How a message names an instance of the class: `env` for `Env`, `config`
    for `TrainConfig`, `sgd` for `SGD` (a run of capitals is one word)."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", cls)
    return words[-1].lower() if words else "obj"


def _after_change(consequences: tuple[str, ...], change: str, target: Target) -> str:
    """What JAX does once the static object changes, on the releases the project targets."""
    return f"after {change}, {after_key_change(consequences, target, 'state')}"


class IdentityHashStatic(ClassRule):
    """A class that hashes or compares by identity is a static argument of
    `jax.jit`: every new, equal instance compiles again, and a change to an
    instance is never seen.

    ## What it does

    Flags a class whose instances reach a static position of a caching
    transform (found as for JAX101: annotation, call site or static `self`, in
    any module of the project) and that hashes or compares by identity:

    - it defines neither `__hash__` nor `__eq__`, nor does a base class of the
      project, so it keeps `object`'s;
    - it is a `@dataclass(eq=False)`, frozen or not;
    - its `__hash__` returns `id(self)` or `object.__hash__(self)`, or is
      `object.__hash__`;
    - it defines a value `__hash__` but no `__eq__`, or an `__eq__` that defers
      to `object.__eq__`: equal copies still compare unequal.

    Whether the class is mutable or the jitted function reads it does not
    matter. `Enum` subclasses and the classes listed in `singletons` are not
    flagged. An object held in a field of a static object counts when the
    outer object hashes by value (its hash and `==` reach the inner one).

    A bound method passed as a static argument (or held in a field of an
    `eqx.Module` under `eqx.filter_jit`) hashes and compares by the identity
    of its object, whatever the class defines: it is flagged at the static
    argument, by the default profile when new objects are built again and
    again.

    Reported on the `def __hash__` line (or the `__eq__` at fault) when that
    method is at fault, otherwise on the `class` line; the message names the
    static use (`path:line`) and, under the default profile, where the equal
    copies are built. A mutable class the jitted function reads (the TORAX
    Vehicle) also gets JAX101.

    ## Why is this bad?

    `jax.jit` finds a compiled function by the static value's `hash` and `==`.
    With identity semantics two equal instances are different keys, so each
    fresh copy (one per call, per run, per loop iteration) is traced and
    compiled again. And since a mutated instance still hashes and compares as
    itself, JAX returns the result compiled for its old state.

    Checked on jax 0.10.2, CPU: the example traces 5 times for 5 equal `Cfg(3)`,
    where 1 is needed; the TORAX Vehicle prints 2 then 2 instead of 2 then 4
    after `x.num_wheels = 4`.

    ## Example

    ```python
    import dataclasses
    from functools import partial
    import jax

    traces = 0

    @dataclasses.dataclass(frozen=True, eq=False)
    class Cfg:  # JAX102 is reported on this line
        n: int

    @partial(jax.jit, static_argnums=1)
    def add(x, cfg):
        global traces
        traces += 1  # runs only when JAX traces (and compiles) again
        return x + cfg.n

    for _ in range(5):
        add(1.0, Cfg(3))
    print(traces)  # 5: one compilation per equal copy, where 1 is enough
    ```

    ## Use instead

    Hash and compare by value: keep the dataclass's generated `__eq__`/`__hash__`.

    ```python
    import dataclasses
    from functools import partial
    import jax

    traces = 0

    @dataclasses.dataclass(frozen=True)
    class Cfg:
        n: int

    @partial(jax.jit, static_argnums=1)
    def add(x, cfg):
        global traces
        traces += 1  # runs only when JAX traces (and compiles) again
        return x + cfg.n

    for _ in range(5):
        add(1.0, Cfg(3))
    print(traces)  # 1: equal copies share one compiled function
    ```

    A hand-written class needs `__hash__` and `__eq__` over every field, plus
    the type if it has subclasses: `hash((type(self), self.n))`.

    ## Fix

    Unsafe (`--fix --unsafe-fixes`): a `@dataclass(eq=False)` class (or attrs)
    loses `eq=False` and gets `frozen=True`, so that it compares and hashes by
    its fields. Unsafe because `==` between two instances changes from identity
    to value, and a field set after construction now raises
    `FrozenInstanceError`. No fix for a hand-written `__hash__` from `id(self)`
    or a plain class: what its value is, is the author's choice.

    Not offered for a plain class, nor where freezing would surely break the
    program or leave the finding: a class whose own methods assign `self.x`
    (`__post_init__`, a setter: a frozen instance raises at once), one that
    writes its own `__eq__`, `__hash__`, `__setattr__` or `__delattr__`, one
    with a base that is not a frozen dataclass of the same file, or one with a
    subclass in the same file that is a non-frozen dataclass (a frozen dataclass
    and a non-frozen one cannot inherit from each other). A subclass in another
    file is not seen: that is one more reason the fix is unsafe.

    ## Options

    The default profile reports JAX102 when new, equal objects reach the cache
    again and again: built at the call of the jitted function, or in a local
    of the function that makes that call (for a static `self`, in the function
    that calls the method), when that code runs in a loop, in a function the
    project calls on every turn of a loop, or in a public function of a public
    module that the project never calls itself (a library's users call it as
    often as they like). For a jitted method with `self` static, whose cache
    is the class's, a new object anywhere counts: built on every turn of a
    loop (in its body or in a function it calls directly), or once per test
    case (a parametrised test, a function-scoped pytest fixture several tests
    take, a helper several tests call with the same constants). A registry's
    `make("SMAX", ...)`, a function that builds one class or another by
    comparing its parameter with strings (`if name == "SMAX": env =
    SMAX(...)`) or by a dict of classes keyed by strings, builds the class
    its string selects. Code that runs while JAX traces, once
    per compilation, does not count. `strict` reports every class that hashes by
    identity at a static position, as the design standard asks: only
    singletons may.

    `singletons` lists classes of which one instance is ever made: hashing by
    identity is right for them, and they are never JAX102.

    ## Known problems

    Not flagged, and fine:

    - frozen dataclasses (default `eq=True`), `NamedTuple`, and classes with a
      value `__hash__` and `__eq__`;
    - `Enum` members, module-level functions and classes: singletons, so
      identity is right; primitives, tuples and frozensets;
    - classes jaxcheck cannot see into (an unknown base class, decorator or
      metaclass, or a class from an installed package): it never guesses.

    Not flagged, but compiling again just the same: equal copies that come
    from a helper (`add(1.0, make_cfg())` in a loop). jaxcheck cannot tell
    their class at the call; with the parameter annotated (`cfg: Cfg`) it can,
    but only `strict` reports it, since the copies are not built where they are
    used. A class of which only one instance is ever made may hash by
    identity: list it in `singletons`, or put `# noqa: JAX102` on the reported
    line, or set `ignore = ["JAX102"]` or
    `per-file-ignores = { "tests/*" = ["JAX102"] }` in `[tool.jaxcheck]`.

    ## References

    - JAX FAQ, "How to use `jit` with methods?", Strategy 2, "Marking `self` as
      static": the default `__hash__` is the object ID, so JAX cannot see a
      mutation. https://docs.jax.dev/en/latest/faq.html
    - `jax.jit` docstring on `static_argnums`: static arguments should be
      hashable (`__hash__` and `__eq__`) and immutable.
      https://docs.jax.dev/en/latest/_autosummary/jax.jit.html
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"):
      hash and compare by value; only singletons may hash by id.
    - StackOverflow, "Using Jax Jit on a method as decorator versus applying jit
      function directly".
    """

    code = "JAX102"
    name = "identity-hash-static"
    summary = "a class that hashes or compares by identity reaches a static position"
    facts = ("identity-key",)

    def judge(self, path, cls, traits, uses, model):
        yield from self._bound_methods(cls, uses, model)
        if traits.hashing != IDENTITY:
            return
        uses = [use for use in uses if model.hash_consulted(use)]
        if not uses:
            return
        built = built_repeatedly(model, cls.qualname, uses)
        consequence = (
            f"it is {built}, so each new, equal instance traces and compiles again"
            if built
            else "each new, equal instance would trace and compile again (jaxcheck found no place that builds more than one)"
        )
        yield self.finding(
            path,
            traits.hashing_location or cls.location,
            f"`{cls.name}` hashes and compares by identity ({traits.hashing_because}) but {uses_text(uses, model)}: "
            f"{consequence}",
            "Hash and compare by value: `@dataclass(frozen=True)`, or `__hash__` and `__eq__` over every field",
            related_uses(uses, model),
            evidence=bool(built),
        )

    def _bound_methods(self, cls, uses, model):
        """A bound method hashes and compares by its owner's identity, however the owner's class hashes."""
        for use in uses:
            if not use.method:
                continue
            built = built_repeatedly(model, cls.qualname, [use])
            consequence = (
                f"`{cls.name}` is {built}, so each new owner traces and compiles again"
                if built
                else "each new owner would trace and compile again"
            )
            name = model.symbols.short_name(use.function)
            where = (
                f"is held in `{use.parameter}`, a static leaf of the `{use.leaf_of.rpartition('.')[2]}` passed to "
                f"`{name}` under `{use.spec.transform.name}`"
                if use.leaf_of
                else f"is passed as static argument `{use.parameter}` of `{name}`"
            )
            yield self.finding(
                use.path,
                use.location,
                f"a bound method `{cls.name}.{use.method}` {where}: it hashes by the identity of its object, and "
                f"{consequence}",
                f"Pass the object itself, of a class that is immutable and hashes by value, and call "
                f"`.{use.method}` inside, or pass a module-level function",
                related_uses([use], model),
                evidence=bool(built),
            )


class UnhashableStatic(ClassRule):
    """An unhashable value (list, dict, set, array, a default `@dataclass`, a class
    with `__eq__` but no `__hash__`) is a static argument of `jax.jit`: the call
    raises `ValueError`.

    ## What it does

    Flags two things:

    - At a call of a jitted function, an argument in a static position
      (`static_argnums`/`static_argnames`, any spelling of `jax.jit`) that is a
      list, dict or set literal or comprehension, or an array made right there
      (`np.array(...)`, `jnp.zeros(...)`, `jax.random.normal(...)` and kin;
      every `jax.numpy` function that returns an array, `jnp.int32(3)` too,
      where NumPy's `np.int32(3)` is a hashable scalar), or an object of a
      library that defines `__eq__` without `__hash__`: `argparse.Namespace`,
      `types.SimpleNamespace`, what `parser.parse_args()` returns (`args`),
      an `ml_collections.ConfigDict` (not a `FrozenConfigDict`, which hashes
      by value), an OmegaConf config (`OmegaConf.create`, `load`, `merge`,
      `structured`), a `fiddle.Config` or `fiddle.Partial`, a scipy sparse
      matrix or array (`scipy.sparse.csr_matrix(...)`, `eye`, `diags` and kin,
      which compare elementwise), a configuration
      read by `json.load(s)`, `yaml.safe_load` or `tomllib.load(s)`. A call of a
      project function counts as what each of its `return`s gives
      (`config = get_config()`), and `PRESETS["small"]` as the item a dict
      display bound once to a module name holds. Reported on the argument.
    - A class whose instances reach a static position (annotated static
      parameter, `Cls(...)` or a name bound to one at a call, or static `self`)
      and that is unhashable: a `@dataclass` (or `@chex.dataclass`, attrs
      `@define`) with the default `eq=True` and neither `frozen=True` nor
      `unsafe_hash=True`, or a pydantic model without `frozen=True` in its
      `model_config` (or an inner `class Config: frozen = True`; a base's
      options count), reported on the `class` line; a class defining
      `__eq__` without `__hash__` (on `def __eq__`); one setting
      `__hash__ = None` (on that line); or a subclass of `list`, `dict`,
      `set` or `bytearray` (on the `class` line).

    A literal bound to a name first (`dims = [1, 2]`) and a value built by
    `list(...)`, `dict(...)`, `set(...)` or an array constructor count too, and
    the class may be defined in another module of the project. A class is
    flagged when one of its static uses is under a transform that raises on an
    unhashable key (all but `jax.checkpoint`/`jax.remat` and `nnx.remat`). A
    value at a static position of `jax.checkpoint` is flagged as well, with
    what that transform does instead: it keys its cache on the value itself, so
    every fresh, equal one traces again, and an in-place change is never seen.

    ## Why is this bad?

    `jax.jit` hashes every static argument to look up its compilation cache. An
    unhashable one cannot be a key, so every call fails before anything runs.
    Checked on jax 0.10.2, CPU: lists, dicts, sets, numpy and jax arrays and the
    example's `Config` all raise

        ValueError: Non-hashable static arguments are not supported. An error
        occurred while trying to hash an object of type <class '__main__.Config'>,
        Config(scale=3). The error was:
        TypeError: unhashable type: 'Config'

    It is loud, but only at run time, possibly after a long setup, and the
    tempting fix (`unsafe_hash=True`, or a `__hash__` on a mutable class) trades
    the error for JAX101's silent stale results.

    ## Example

    ```python
    import dataclasses
    from functools import partial
    import jax

    @dataclasses.dataclass
    class Config:  # JAX106: a plain @dataclass has __hash__ = None
        scale: int

    @partial(jax.jit, static_argnames=("cfg", "dims"))
    def step(x, cfg, dims):
        return x * cfg.scale * sum(dims)

    print(step(2.0, cfg=Config(3), dims=[1, 2]))  # JAX106 at the list too
    ```

    ## Use instead

    Pass immutable, value-hashed equivalents:

    ```python
    import dataclasses
    from functools import partial
    import jax

    @dataclasses.dataclass(frozen=True)
    class Config:
        scale: int

    @partial(jax.jit, static_argnames=("cfg", "dims"))
    def step(x, cfg, dims):
        return x * cfg.scale * sum(dims)

    print(step(2.0, cfg=Config(3), dims=(1, 2)))  # 18.0
    ```

    - list -> tuple; set -> frozenset;
    - dict -> a tuple of `(key, value)` pairs, or a frozen dataclass;
    - array -> a tuple of Python numbers (`tuple(a.tolist())`), or pass the
      array as a regular (traced) argument, not a static one;
    - `@dataclass` -> `@dataclass(frozen=True)`;
    - `__eq__` without `__hash__` -> add a `__hash__` over the same fields, on a
      class that blocks assignment (or a frozen dataclass).

    ## Fix

    A list, set or dict written at the call: `[1, 2]` becomes `(1, 2)`, `{1, 2}`
    `frozenset({1, 2})`, `[f(x) for x in xs]` `tuple(f(x) for x in xs)`. This is
    **safe** (`--fix`) under a transform that raises on the original (`jax.jit`
    and every one but `jax.checkpoint`): JAX raises `ValueError` on every
    execution of that call, so no run of the program ever computed anything from
    it, and a function that reads its argument (iterates, indexes, takes `len`,
    tests `in`) sees the same elements in a tuple. The one program it changes is
    one that catches that `ValueError` on purpose, such as a test of the error:
    mark such a line `# noqa: JAX106`. Under `jax.checkpoint` the original call
    runs, and a function that changed the list in place would now fail: unsafe
    there.

    A dict becomes a tuple of (key, value) pairs, `{"a": 3}` `(("a", 3),)`:
    unsafe (`--fix --unsafe-fixes`), as the function must then read it as
    `dict(pairs)`.

    A plain `@dataclass` class at a static position gets `frozen=True`: unsafe,
    as for JAX101 (a field set after construction now raises
    `FrozenInstanceError`), and offered in the same cases. No fix for an array,
    a name bound to a list earlier (another use may need the list), or a class
    with `__eq__` and no `__hash__`.

    ## Options

    The default profile reports every JAX106 under a transform that raises
    (`ValueError` on the call is the evidence), and, under `jax.checkpoint`,
    `jax.remat` or `nnx.remat` (which trace again for every fresh value instead
    of raising), an unhashable value passed again and again: by a call in a
    loop, or in a function the project calls repeatedly. `strict` reports
    such a value at any call. No option is specific to JAX106.

    ## Known problems

    Not flagged, and fine:

    - tuples, frozensets, primitives, frozen dataclasses, `NamedTuple` and
      `Enum` members as static arguments;
    - a bound method of an unhashable class (`step(x, scaler.apply)` with a
      plain `@dataclass` `Scaler`): it hashes by its object's identity, so
      nothing raises (JAX101 and JAX102 speak of it);
    - lists, dicts and arrays passed as regular arguments: those are pytrees,
      traced, and need no hash;
    - classes jaxcheck cannot see into (an unknown base class, decorator or
      metaclass, or a class from an installed package): it never guesses.
      `strict` reads such a class's own body: `__eq__` without `__hash__`
      makes Python set `__hash__` to None (checked on a `flax.linen.Module`
      subclass: JAX raises), unless the base's metaclass writes a hash, as
      pydantic's does for a frozen model; the message names the unknown base.
      A `@dataclass` over an unknown base is not read (linen makes its
      subclasses dataclasses with a hash, which `@dataclass` then keeps).

    Not flagged, but raising just the same: an unhashable value that reaches
    the call through a name jaxcheck cannot follow (a method's result, the
    result of a function that may return something else, an attribute, an
    element of a container), unless its class is known from the parameter's
    annotation.

    Under `jax.checkpoint`, a call made once per run of a function that is
    itself called once per run (a script's `main()`) traces once either way:
    the default profile leaves it to `strict`.

    A flagged value at a static position of `jax.jit` always raises, so a
    finding is rarely safe; if it is (say, dead code), put `# noqa: JAX106` on
    the reported line, or set `ignore = ["JAX106"]` or
    `per-file-ignores = { "tests/*" = ["JAX106"] }` in `[tool.jaxcheck]`.

    ## References

    - `jax.jit` docstring on `static_argnums`: static arguments should be
      hashable, meaning both `__hash__` and `__eq__` are implemented, and
      immutable. https://docs.jax.dev/en/latest/_autosummary/jax.jit.html
    - JAX FAQ, "How to use `jit` with methods?", Strategy 2, "Marking `self` as
      static": mutable containers such as `dict` and `list` define no
      `__hash__`. https://docs.jax.dev/en/latest/faq.html
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"):
      static arguments must be immutable and support `__hash__` and `__eq__`.
    - StackOverflow, "Why is custom pytree 'aux_data' traced after jax.jit() for
      jnp.array but not for np.array?": static elements must be
      hashable and immutable; neither `np.ndarray` nor `jax.Array` is.
    """

    code = "JAX106"
    name = "unhashable-static"
    summary = "an unhashable value (list, dict, set, array, non-frozen dataclass) reaches a static position"
    facts = ("unhashable-key",)

    def check(self, model: Model):
        yield from super().check(model)
        for qualname, uses in model.static_uses_by_class.items():
            traits = model.classes.unhashable_by_own_body(qualname)
            if traits is not None:
                cls = model.symbols.classes[qualname]
                path = model.symbols.path_of[qualname]
                yield from about_uses(self.judge(path, cls, traits, uses, model, judged=False), uses)
        for use in model.static_uses:
            if not use.unhashable:
                continue
            kind, transform = use.unhashable, use.spec.transform
            name = model.symbols.short_name(use.function)
            what = f"{'an' if kind == 'array' else 'a'} {kind} is passed as static argument `{use.parameter}` of `{name}`"
            if transform.raises_on_unhashable:
                yield self.finding(
                    use.path,
                    use.location,
                    f"{what}: it is unhashable, so JAX raises {_UNHASHABLE_ERROR} on this call",
                    f"Pass {_INSTEAD[kind]} instead",
                    raises=True,
                )
                continue
            repeated = runs_repeatedly(model, use.path, use.call or use.location)
            yield self.finding(
                use.path,
                use.location,
                f"{what}: `{transform.name}` keys its cache on the {kind} itself, so "
                + ("this call, made again and again, traces again every time"
                   if repeated else "every fresh, equal one traces again")
                + ", and an in-place change is never seen",
                f"Pass {_INSTEAD[kind]} instead",
                evidence=repeated,
            )

    def judge(self, path, cls, traits, uses, model, judged: bool = True):
        """`judged` is False for a class read by its own body alone (a base unknown): strict only."""
        if traits.hashing != UNHASHABLE:
            return
        uses = [use for use in uses if model.hash_consulted(use)]
        raising = [use for use in uses if use.outermost.spec.transform.raises_on_unhashable]
        if not raising:
            return
        consequence = "JAX raises" if judged else "unless that base's metaclass writes a hash, JAX raises"
        yield self.finding(
            path,
            traits.hashing_location or cls.location,
            f"`{cls.name}` is unhashable ({traits.hashing_because}) but {uses_text(raising, model)}: {consequence} "
            f"{_UNHASHABLE_ERROR} when the function is called",
            "Make it immutable and hashable by value: `@dataclass(frozen=True)`, or a `__hash__` over the same "
            "fields as `__eq__` on an immutable class",
            related_uses(raising, model),
            evidence=judged,
        )
