"""JAX103-JAX105: what a static class holds must be static too.

A static value is found again by `hash` and `==`, so its hash and equality
must see every field the compiled function reads (and the type, when there are
subclasses), and every field must itself be static: no array, no mutable or
identity-hashed object, and no callable created per instance.
"""

from __future__ import annotations

from jaxcheck import facts as f
from jaxcheck.model.classes import IDENTITY, VALUE, Field
from jaxcheck.model.evidence import bound_object_changes, built_repeatedly, instances_built_repeatedly, runs_repeatedly
from jaxcheck.model.jax_api import ABSTRACT_DECORATORS
from jaxcheck.model.jax_versions import STALE, outcomes
from jaxcheck.model.project import Model
from jaxcheck.model.state import Reads
from jaxcheck.model.static_uses import CALL_SITE, FIELD
from jaxcheck.model.values import ARRAY
from jaxcheck.rules.base import ClassRule, about_uses, after_key_change, related_change, related_uses, uses_text
from jaxcheck.findings import place_named

_UNHASHABLE = ("an array", "a list", "a dict", "a set", "a bytearray")


def _read_by_uses(uses, class_qualname: str, model: Model) -> Reads:
    """What the compiled functions read on the static value, through its methods."""
    reads = Reads()
    for use in uses:
        reads |= use.reads
    return model.state.object_reads(class_qualname, reads)


class IncompleteHash(ClassRule):
    """A static argument of `jax.jit` has a hand-written `__eq__` that leaves out a
    field the jitted function reads (or, in a class hierarchy, the type): two
    values that differ only there share one compiled function, and the second
    call silently gets the first one's result.

    ## What it does

    Flags a hand-written `__eq__`, and the `__hash__` beside it, when all of
    these hold:

    - An instance reaches a static position of `jax.jit` (found as for JAX101:
      a static parameter annotated with the class, a static argument `Cls(...)`
      or a name bound to one at a call of the jitted function, `self` of a
      method jitted with argument 0 or `"self"` static), or is held in a field
      of such a static class annotated with it (`shape: Shape` in a frozen
      static `Holder`).
    - The class hashes by value through an `__eq__` written in its body or in a
      project base class (a dataclass in between writes its own and stops the
      search), and that `__eq__` leaves out:
      - a field the jitted function reads on the static value, directly
        (`cfg.b`) or through its methods (`cfg.total()`). A field is a
        dataclass field, or an attribute set on `self` in
        `__init__`/`__post_init__` (or a helper they call) from a constructor
        argument, as it is or converted (`tuple(sizes)`). A field computed from
        arguments another compared field holds (`self._key = (a, b)`,
        `self.n = len(dims)`) is covered by that field. The method's own reads
        through `self.helper()` count (`self._key() == other._key()`); or
      - the type, when the class has subclasses in the project and an instance
        is held inside another static value: neither `type(self)` nor
        `self.__class__` is part of it (`isinstance(other, Base)` does not tell a
        subclass from its base). At the top level JAX keys the type itself.

    Also flags a field a `@dataclass(eq=False)` subclass adds when the jitted
    function reads it: that subclass writes no `__eq__`/`__hash__`, so it keeps
    the ones its base's dataclass generated, which compare the base's fields
    only.

    Reported on the `def __eq__` line, and also on the `def __hash__` line when
    `__hash__` leaves the same thing out (for an `eq=False` subclass, on the
    field it adds); the message names what is left out and the static use
    (`path:line`). A `__hash__` that leaves out only what
    `__eq__` compares is not flagged: it merely collides (see below).

    ## Why is this bad?

    `jax.jit` finds a compiled function by the static arguments' `hash` and
    `==`. A value that is equal to the cached one gets the cached function, so
    whatever `__eq__` ignores, the compiled function ignores too: `Config(2, 0)`
    and `Config(2, 5)` run the code compiled for `offset=0`. There is no error,
    only a wrong number.

    For the type: JAX keys a top-level static argument on its type as well, but
    not objects nested inside a static argument (a field of a static dataclass,
    an element of a static tuple). If `Shape(3) == Square(3)`, then
    `Holder(Shape(3)) == Holder(Square(3))`, and the call with the `Square`
    gets the `Shape`'s function.

    Checked on jax 0.10.2, CPU: the example prints 2.0 then 2.0 instead of 2.0
    then 7.0; `fixtures/JAX103/fail_missing_type.py` gives 3.0 instead of 9.0
    for `Holder(Square(3))` after `Holder(Shape(3))`. JAX compares a static
    argument with the cached one by `==` even when their hashes differ, so an
    incomplete `__eq__` goes stale on its own, next to a complete `__hash__`
    (even one generated by `@dataclass(frozen=True)`). An incomplete
    `__hash__` next to a complete `__eq__` gives right results: values that
    differ there only collide in the hash table.

    ## Example

    ```python
    from functools import partial
    import jax

    class Config:
        def __init__(self, scale, offset):
            object.__setattr__(self, "scale", scale)
            object.__setattr__(self, "offset", offset)

        def __setattr__(self, name, value):
            raise AttributeError("Config is immutable")

        def __hash__(self):  # JAX103 is reported on this line...
            return hash(self.scale)

        def __eq__(self, other):  # ... and on this one: both leave out `offset`
            return type(other) is type(self) and other.scale == self.scale

    @partial(jax.jit, static_argnums=1)
    def apply(x, cfg):
        return x * cfg.scale + cfg.offset

    print(apply(1.0, Config(2, 0)))  # 2.0
    print(apply(1.0, Config(2, 5)))  # 2.0: compiled for offset=0; 7.0 is right
    ```

    ## Use instead

    Put every field, and the type, in one key that both methods use:

    ```python
    from functools import partial
    import jax

    class Config:
        def __init__(self, scale, offset):
            object.__setattr__(self, "scale", scale)
            object.__setattr__(self, "offset", offset)

        def __setattr__(self, name, value):
            raise AttributeError("Config is immutable")

        def _key(self):
            return (type(self), self.scale, self.offset)  # every field, and the type

        def __hash__(self):
            return hash(self._key())

        def __eq__(self, other):
            return type(other) is type(self) and other._key() == self._key()

    @partial(jax.jit, static_argnums=1)
    def apply(x, cfg):
        return x * cfg.scale + cfg.offset

    print(apply(1.0, Config(2, 0)))  # 2.0
    print(apply(1.0, Config(2, 5)))  # 7.0
    ```

    Better still, let `@dataclasses.dataclass(frozen=True)` write both methods
    (do not define either yourself): they cover every field, and the generated
    `__eq__` checks the class, so a new field is never forgotten.

    ## Fix

    Unsafe (`--fix --unsafe-fixes`): a dataclass child declared with `eq=False`
    loses it (and is made frozen, if it was not), so that `dataclass` writes
    `__eq__` and `__hash__` over all its fields. Unsafe because `==` between two
    children then compares their own fields too. No fix for a hand-written
    `__hash__`/`__eq__` that leaves out a field or the type: which belong in it
    is the author's choice.

    Not offered for a plain class, nor where freezing would surely break the
    program or leave the finding: a class whose own methods assign `self.x`
    (`__post_init__`, a setter: a frozen instance raises at once), one that
    writes its own `__eq__`, `__hash__`, `__setattr__` or `__delattr__`, one
    with a base that is not a frozen dataclass of the same file, or one with a
    subclass in the same file that is a non-frozen dataclass (a frozen dataclass
    and a non-frozen one cannot inherit from each other). A subclass in another
    file is not seen: that is one more reason the fix is unsafe.

    ## Options

    JAX103 is reported under both profiles: values that differ in a field the
    jitted function reads, yet compare equal, give a stale result whenever
    both reach the cache, and nothing else is needed to show it. No option is
    specific to JAX103.

    ## Known problems

    Not flagged, and fine:

    - a left-out field that the jitted function never reads (a label, a
      cache): values that differ only there give the same result;
    - a field computed from the others (`self.b = self.a * 2`): it follows
      them;
    - a `__hash__` over fewer fields than `__eq__` compares (only collisions);
    - `__eq__`/`__hash__` generated by `@dataclass` (`frozen=True`), and
      `NamedTuple`, which compares as a tuple of all its fields whatever its
      `__hash__`;
    - methods over `dataclasses.astuple(self)`, `vars(self)` or
      `self.__dict__`, which cover every field;
    - a class without subclasses that leaves out the type;
    - `Enum` members (singletons, compared by identity).

    Not flagged, but stale just the same: a class that is static only because
    it sits in a static tuple (`f(x, (Square(3),))`) or in a field not
    annotated with it (`Holder(Square(3))` with `shape: Any`).

    Reported, but worded wrongly: an `__eq__` or `__hash__` that defers to
    `super()` is read as comparing nothing, so the message names every field
    the jitted function reads, even those the base class compares; the finding
    stands only when the base's method leaves something out.

    A field the compiled code reads but whose value cannot change the result
    (a name used only in a trace-time log message) may be left out, but
    jaxcheck cannot tell: put `# noqa: JAX103` on the reported line, or set
    `ignore = ["JAX103"]` or `per-file-ignores = { "tests/*" = ["JAX103"] }`
    in `[tool.jaxcheck]`.

    ## References

    - `jax.jit` docstring on `static_argnums`: static arguments should be
      hashable, meaning both `__hash__` and `__eq__` are implemented, and
      immutable. https://docs.jax.dev/en/latest/_autosummary/jax.jit.html
    - Python data model, `object.__hash__`: objects that compare equal must
      have the same hash value; mix the components that take part in comparison
      into the hash. https://docs.python.org/3/reference/datamodel.html#object.__hash__
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"):
      hash and compare by value, hash the class id when polymorphic; it is easy
      "to forget to hash the class id" or to "forget to update it later when
      adding a field".
    """

    code = "JAX103"
    name = "incomplete-hash"
    summary = "a hand-written `__hash__`/`__eq__` of a static class leaves out a field it reads, or the type"
    facts = ("nested-type",)

    def judge(self, path, cls, traits, uses, model):
        if traits.hashing != VALUE:
            return
        uses = [use for use in uses if model.hash_consulted(use)]
        if not uses:
            return
        reads = _read_by_uses(uses, cls.qualname, model)
        sources: dict[str, set[str]] = {}
        for field in model.classes.fields(cls.qualname):
            found = _sources(field, model)
            if found:
                sources.setdefault(field.name, set()).update(found)
        methods = {method.name for method in model.symbols.methods(cls.qualname)}
        wanted = {name for name in sources if reads.opaque or name in reads.attributes} - methods
        # JAX keys the type of a top-level static argument itself: only an object
        # held inside another static value needs its type in `==`.
        nested = any(use.via == FIELD for use in uses)
        subclasses = model.symbols.subclasses.get(cls.qualname, ())
        eq = model.classes.equality_method(cls.qualname, "__eq__")
        hash_ = model.classes.equality_method(cls.qualname, "__hash__")
        # Only `==` can make two different values one cache entry: a hash that
        # leaves something out merely collides, unless `==` leaves it out too.
        if eq is None:
            yield from self._inherited_generated(path, cls, wanted, uses, model)
        eq_missing, eq_typed = _left_out(eq, cls.qualname, wanted, sources, model)
        hash_missing, hash_typed = _left_out(hash_, cls.qualname, wanted, sources, model)
        for method, missing, untyped in (
            (eq, eq_missing, nested and bool(subclasses) and not eq_typed),
            (hash_, hash_missing & eq_missing, nested and bool(subclasses) and not eq_typed and not hash_typed),
        ):
            if method is None or not (missing or untyped):
                continue
            problems = []
            if missing:
                listed = ", ".join(f"`{field}`" for field in sorted(missing))
                problems.append(f"leaves out {listed}, which the compiled function reads")
            if untyped:
                sub = subclasses[0].rpartition(".")[2]
                problems.append(f"leaves out the type, though `{sub}` subclasses `{cls.name}`")
            owner = method.qualname.rpartition(".")[0].rpartition(".")[2]
            named = f"`{owner}.{method.name}`" + (f" (which `{cls.name}` inherits)" if owner != cls.name else "")
            yield self.finding(
                model.symbols.path_of[method.qualname],
                method.location,
                f"{named} {'; it '.join(problems)}, but {uses_text(uses, model)}: values "
                "that differ only there find each other's compiled function (stale results)",
                "Put every such field in both `__eq__` and `__hash__`"
                + (" and the type (`type(self)`)" if untyped else "")
                + ", or let `@dataclass(frozen=True)` write them",
                related_uses(uses, model),
            )


    def _inherited_generated(self, path, cls, wanted: set[str], uses, model: Model):
        """A `@dataclass(eq=False)` subclass keeps the `__eq__` its base's
        dataclass generated, which compares the base's fields only."""
        base = model.classes.generated_by(cls.qualname, "__eq__")
        if base is None or base == cls.qualname:
            return
        compared = {field.name for field in model.classes.fields(base) if field.compared}
        reported = set()
        for field in model.classes.fields(cls.qualname):
            if field.name not in wanted or field.name in compared or field.name in reported:
                continue
            reported.add(field.name)
            base_name = base.rpartition(".")[2]
            yield self.finding(
                field.path,
                field.location,
                f"`{cls.name}.{field.name}` is left out of the `__eq__` and `__hash__` that `{cls.name}` inherits "
                f"from `{base_name}` (its `@dataclass(eq=False)` writes none), yet the compiled function reads it, "
                f"and {uses_text(uses, model)}: values that differ only there find each other's compiled function "
                "(stale results)",
                "Drop `eq=False`, so that `@dataclass` writes both over every field",
                related_uses(uses, model),
            )


def _holds_an_array(model: Model, class_qualname: str, name: str) -> bool:
    """The field holds an array, by its annotation or the value given to it."""
    held = model.values.attribute_holds(class_qualname, name)
    return held is not None and held.kind == ARRAY


def _left_out(method, class_qualname: str, wanted: set[str], sources: dict, model: Model):
    """(wanted fields whose sources a hand-written method does not read, whether it reads the type).

    A field derived from the constructor arguments another compared field
    holds (`self._key = (a, b)`, `self.n = len(dims)`) is covered by it.
    """
    if method is None:
        return set(), True
    covered, everything, typed = _coverage(method, class_qualname, model)
    if everything:
        return set(), True
    seen = set().union(*(sources.get(name, {name}) for name in covered))
    return {name for name in wanted if not sources[name] <= seen}, typed


def _sources(field: Field, model: Model) -> set[str]:
    """The constructor arguments a field carries; empty for one computed from
    nothing it was given (a cache, a constant)."""
    if field.declared:
        return {field.name}
    value = field.value
    if value is None:
        return set()
    return {candidate.ref.name for candidate in (value, *value.args) if _is_parameter(candidate, model)}


def _is_parameter(value: f.Value, model: Model) -> bool:
    if value.kind != f.NAME or value.ref is None or not value.ref.is_local or value.ref.attributes:
        return False
    known = model.symbols.functions.get(value.ref.function)
    return known is not None and any(parameter.name == value.ref.name for parameter in known.parameters[1:])


def _coverage(method: f.FunctionFacts, class_qualname: str, model: Model) -> tuple[set[str], bool, bool]:
    """(fields it reads, whether it may read everything, whether it reads the type)."""
    covered, everything, typed = set(), False, False
    for position, parameter in enumerate(method.parameters[:2]):
        use = method.parameter_use(parameter.name)
        if use is None:
            continue
        reads = model.state.parameter_reads(method, parameter.name, class_qualname if position == 0 else None)
        covered.update(reads.attributes)
        everything = everything or (
            position == 0 and (reads.opaque or "__dict__" in reads.attributes or _polymorphic(reads, class_qualname, model))
        )
        typed = typed or "__class__" in reads.attributes or any(
            ref is not None and ref.dotted == "builtins.type" for ref in use.passed_to
        )
    return covered, everything, typed


def _polymorphic(reads: Reads, class_qualname: str, model: Model) -> bool:
    """The method reads a method or property that a subclass overrides (or that
    is abstract): what it covers depends on the class of the object at hand."""
    subclasses = model.symbols.all_subclasses(class_qualname)
    for name in reads.attributes:
        method = model.symbols.find_method(class_qualname, name)
        if method is None:
            continue
        if any(decorator.dotted in ABSTRACT_DECORATORS for decorator in method.decorators):
            return True
        if any(model.symbols.method(sub, name) is not None for sub in subclasses):
            return True
    return False


def compared_fields(class_qualname: str, model: Model) -> set[str] | None:
    """The fields `==` compares; None when every field may be."""
    eq = model.classes.equality_method(class_qualname, "__eq__")
    if eq is not None:
        covered, everything, _ = _coverage(eq, class_qualname, model)
        return None if everything else covered
    if any(model.classes.is_dataclass_like(cls) for cls in model.symbols.mro(class_qualname)):
        return {field.name for field in model.classes.fields(class_qualname) if field.compared}
    return set()  # compared by identity: a field changes nothing (JAX102 speaks of that)


class DynamicChildOfStatic(ClassRule):
    """A class that is a static argument of `jax.jit` holds an array, a list, dict
    or set, or an object that is not static-safe: the call raises `ValueError`,
    or JAX bakes what it holds into the compiled function and keeps using it
    after it changes in place.

    ## What it does

    Flags a field of a class whose instances reach a static position of
    `jax.jit` (found as for JAX101: annotated static parameter, `Cls(...)` or a
    name bound to one at a call, or static `self`; also the static half of
    `dynamic, static = eqx.partition(model, ...)`, a `model` whose arrays are
    None, so its array fields are not flagged) when the field holds an
    array, a mutable container, or an object that is not static-safe:

    - its annotation in the class body names an array type: `jax.Array`,
      `jnp.ndarray`, `np.ndarray`, `numpy.typing.NDArray`, `chex.Array`, or a
      jaxtyping type (`Array`, `Float[Array, "n"]`, `Int[...]`, `PRNGKeyArray`
      and kin), also inside `Optional[...]`, `X | None` or `Annotated[...]`
      (`ArrayLike` is not: it admits Python scalars);
    - or the value given to it is made by an array constructor
      (`np.array/asarray/zeros/ones/full/arange/linspace/eye/...`, the same
      under `jnp.`, any `jax.random.*`): an annotated class-body default
      (`w: jax.Array = jnp.zeros(3)`), `self.w = ...` or
      `object.__setattr__(self, "w", ...)` in `__init__`, `__post_init__` or a
      helper they call. A list, dict or set literal (or `list(...)`, `dict(...)`,
      `set(...)`) stored there is flagged too, and so is arithmetic with an
      array (`scale * jnp.ones(3)`), and `field(default_factory=dict)` (or
      `list`, `set`) when a construction leaves the field at its default;
    - or what a project function or method returns, when every `return` of it
      gives such a value (`self.noise = self.sampler.sample(key)`), or builds a
      value-hashed object from an array (`return Sample(mean, std)`, a
      `NamedTuple`): given to the field, directly or through the constructor.

    Only fields that `==` compares count: a dataclass's fields (not those with
    `compare=False`), or what a hand-written `__eq__` reads. An attribute derived
    in `__post_init__` from the compared fields (`self._taps = np.linspace(...)`)
    is a constant of the key, and an unannotated class-body name (`_GRID =
    np.linspace(...)`) is a class constant, not a field: neither is flagged.

    Reported on the field: the annotated line in the class body, or the
    assignment. The message names the static use (`path:line`). The class itself
    may be a perfectly good static argument (frozen, hashed by value): JAX104 is
    about what it holds. A plain class that is also mutable or hashed by identity
    gets JAX101/JAX102 on its `class` line as well.

    A field holding an object of another project class that is not static-safe
    (mutable, hashed by identity, unhashable; not an `Enum` or a configured
    singleton) is flagged too, and makes that class static: it may get JAX101,
    JAX102 or JAX106 on its own `class` line, the message naming the field that
    holds it.

    The class may be defined in another module of the project than the static
    use; the finding is in the class's file.

    ## Why is this bad?

    The TORAX design standard for JAX-compatible classes: "because static arguments must be hashable,
    and because dynamic arguments (JAX tracers / NumPy arrays) are not hashable,
    no static class can have dynamic children." An array is unhashable, so a
    class that hashes by value over its fields (a frozen dataclass, a
    `NamedTuple`) cannot be hashed, and `jax.jit` fails on every call. Checked on
    jax 0.10.2, CPU, with the example below:

        ValueError: Non-hashable static arguments are not supported. An error
        occurred while trying to hash an object of type <class '__main__.Model'>,
        Model(w=Array([1., 2., 3.], dtype=float32), n=2). The error was:
        TypeError: unhashable type: 'jaxlib._jax.ArrayImpl'

    When the class does hash (by identity, or over `tuple(self.w.tolist())`),
    it is worse: the array is read while tracing, so its values become constants
    of the compiled function, and JAX keeps the static object itself as the
    cache key. A numpy array changed in place (`model.w[0] = 5.0`) changes what
    that key holds without making it unequal to the object passed, so the next
    call reuses the old compiled function. Checked on jax 0.9.0 to 0.10.2: an
    immutable `Model` hashed and compared over `tuple(self.w.tolist())` gives
    12.0 and again 12.0 after the change, where 20.0 is right, with a single
    trace (`fixtures/JAX104/fail_numpy_field_in_init.py`); up to jax 0.8 and
    from 0.11 on, a class whose hash reads the array compiles again for the
    changed one instead. An array is data, which belongs in a traced argument,
    not in the compilation key.

    ## Example

    ```python
    import dataclasses
    from functools import partial
    import jax
    import jax.numpy as jnp

    @dataclasses.dataclass(frozen=True)
    class Model:
        w: jax.Array  # JAX104 is reported on this line
        n: int

    @partial(jax.jit, static_argnums=1)
    def apply(x, model):
        return jnp.sum(x * model.w) * model.n

    apply(jnp.ones(3), Model(jnp.array([1.0, 2.0, 3.0]), 2))
    # ValueError: Non-hashable static arguments are not supported. ...
    ```

    ## Use instead

    Split the class: the array is a regular (traced) argument, and only the
    static configuration stays static.

    ```python
    import dataclasses
    from functools import partial
    import jax
    import jax.numpy as jnp

    @dataclasses.dataclass(frozen=True)
    class Model:
        n: int

    @partial(jax.jit, static_argnums=2)
    def apply(x, w, model):
        return jnp.sum(x * w) * model.n

    w = jnp.array([1.0, 2.0, 3.0])
    print(apply(jnp.ones(3), w, Model(2)))  # 12.0
    print(apply(jnp.ones(3), w.at[0].set(5.0), Model(2)))  # 20.0, same compiled function
    ```

    Or make the class a pytree whose array is a leaf and whose configuration is
    static metadata, and pass it as a regular argument:

    ```python
    import dataclasses
    import jax
    import jax.numpy as jnp

    @jax.tree_util.register_dataclass
    @dataclasses.dataclass(frozen=True)
    class Model:
        w: jax.Array  # a leaf: traced
        n: int = dataclasses.field(metadata=dict(static=True))  # in the treedef

    @jax.jit
    def apply(x, model):
        return jnp.sum(x * model.w) * model.n

    print(apply(jnp.ones(3), Model(jnp.array([1.0, 2.0, 3.0]), 2)))  # 12.0
    print(apply(jnp.ones(3), Model(jnp.array([5.0, 2.0, 3.0]), 2)))  # 20.0, same compiled function
    ```

    When the values really are configuration (a few fixed weights), store them as
    a tuple of Python numbers: `self.w = tuple(float(v) for v in w)`. A tuple
    cannot change in place, and new values make a new, unequal static object.

    ## Fix

    No automatic fix: what to hold instead of the array or mutable object (a
    tuple, a pytree field, a separate argument) is a design choice.

    ## Options

    The default profile reports JAX104 with evidence that JAX goes wrong:

    - the class hashes by value through a generated `__hash__` (a frozen
      dataclass, `unsafe_hash=True`) over a field holding an array, list, dict,
      set or bytearray, or through a hand-written one that gives such a field to
      `hash(...)` itself (`hash((self.w, self.b))`; not `hash(self.w.shape)`):
      `jax.jit` raises on the call;
    - or the code changes the field in place (`model.w[0] = 5.0`,
      `cfg.items.append(...)`), the jitted function reads it, and the class is
      otherwise immutable: a stale result (on JAX 0.9 to 0.10, or on any
      release for a class that hashes by identity) or a compilation per change
      (on the other releases, for one that hashes by value;
      `target-jax-version` picks the consequence the message states).

    `strict` reports every such field, as the design standard asks: "no static
    class can have dynamic children". `singletons` lists classes whose objects
    may be held; `static-bases` names bases whose subclasses count as
    immutable.

    ## Known problems

    Not flagged, and fine:

    - dtypes and types (`dtype: np.dtype`, `dtype = jnp.float32`,
      `np.dtype("float32")` stored in `__post_init__`), shapes as tuples, ints,
      floats and strings;
    - arrays computed in a method from static fields but not stored
      (`def idx(self): return np.arange(self.n)`, equinox issue 863): they are
      constants of the trace, made again for each compilation;
    - arrays passed as regular arguments, including inside a pytree such as a
      `NamedTuple` passed as a regular argument;
    - array annotations on method parameters, return values and locals;
    - a class with an array field that never reaches a static position, and
      `jax.custom_jvp`/`custom_vjp` `nondiff_argnums` (nothing is cached there).

    Not flagged, but just as unhashable or stale: arrays made by other calls
    or expressions (`jnp.asarray(w) + 1`, `jax.device_put(w)`,
    `np.random.rand(3)`, `jnp.float32(1.0)`), arrays inside a container
    annotation (`tuple[jax.Array, ...]`) and a `ClassVar[jax.Array]`.

    A true singleton (one instance, hashed by identity) may hold a `jnp` array
    that nothing replaces, since a jax array cannot change in place; `strict`
    reports it all the same: put `# noqa: JAX104` on the reported line, or set
    `ignore = ["JAX104"]` or `per-file-ignores = { "tests/*" = ["JAX104"] }` in
    `[tool.jaxcheck]`.

    ## References

    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"): no
      static class can have dynamic children; factor every class into a static
      part and a dynamic part that may have static leaves.
    - `jax.jit` docstring on `static_argnums`: static arguments are part of the
      compilation cache key, so they must define hash and equality.
      https://docs.jax.dev/en/latest/_autosummary/jax.jit.html
    - JAX commit cb48f42, "Raise an error on non-hashable static arguments":
      numpy or jnp arrays given as static arguments should simply be made
      non-static. https://github.com/google/jax/commit/cb48f42
    - `jax.tree_util.register_dataclass`: data fields are leaves, fields with
      `static=True` metadata go into the treedef.
      https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_dataclass.html
    - equinox issue 863, "JAX array is set a static warning is raised
      unwantedly": numpy arrays computed in a method from static fields, and not
      kept, are fine. https://github.com/patrick-kidger/equinox/issues/863
    """

    code = "JAX104"
    name = "dynamic-child-of-static"
    summary = "a static class holds an array, a list, dict or set, or an object that is not static-safe"
    facts = ("unhashable-key", "identity-key", "changed-value-key")

    def check(self, model: Model):
        reported = set()
        for finding in super().check(model):
            if (finding.path, finding.line, finding.column) not in reported:
                reported.add((finding.path, finding.line, finding.column))
                yield finding

    def judge(self, path, cls, traits, uses, model):
        # A field `==` does not compare is derived from those it does (a
        # `_taps = np.linspace(...)` built in `__post_init__`): a constant of the key.
        compared = compared_fields(cls.qualname, model)
        hashed_by_generated = (
            traits.hashing == VALUE
            and model.classes.equality_method(cls.qualname, "__hash__") is None
            and any(model.hash_consulted(use) for use in uses)
        )
        hashed_by_hand = (
            model.classes.hashed_fields(cls.qualname) if any(model.hash_consulted(use) for use in uses) else frozenset()
        )
        reads = _read_by_uses(uses, cls.qualname, model)
        changed = {
            change.path[0]: change
            for change in model.state.changes(cls.qualname)
            if change.in_place and len(change.path) == 1 and reads.include(change.path)
        }
        seen = set()
        partitioned = all(use.partitioned for use in uses)
        for field in sorted(model.classes.fields(cls.qualname), key=lambda field: (field.path, field.location)):
            if compared is not None and compared and field.name not in compared:
                continue
            if partitioned and _holds_an_array(model, cls.qualname, field.name):
                continue  # the static half of `eqx.partition(model, eqx.is_array)` holds None there
            holds = model.values.field_holds(cls.qualname, field, hashed_by_generated or field.name in hashed_by_hand)
            if holds is None or field.name in seen:
                continue
            held, sure = holds
            seen.add(field.name)
            where = uses_text(uses, model)
            generated = hashed_by_generated and (field.compared or not field.declared)
            if sure and held.startswith(_UNHASHABLE) and (generated or field.name in hashed_by_hand):
                consequence = (
                    f"`{cls.name}`'s {'generated ' if generated else ''}`__hash__` hashes it, so JAX raises "
                    "`ValueError: Non-hashable static arguments are not supported` on the call"
                )
                related = ()
                evidence = True
            elif field.name in changed and not traits.mutable:
                change = changed[field.name]
                kinds = outcomes("changed-value-key", model.target) if traits.hashing == VALUE else (STALE,)
                related = (related_change(change),)
                consequence = f"{change.shown} changes it in place, and {after_key_change(kinds, model.target, 'value')}"
                evidence = True
            else:
                consequence = "a static class must hold only static values"
                related = ()
                evidence = False
            yield self.finding(
                field.path,
                field.location,
                f"`{cls.name}.{field.name}` holds {held}, but {where}: {consequence}",
                f"Pass `{field.name}` as a regular (traced) argument, or keep a hashable, immutable value there "
                "(a tuple, a frozen dataclass)",
                (*related, *related_uses(uses, model)),
                evidence=evidence,
            )


class BoundMethodField(ClassRule):
    """A class used as a static argument of `jax.jit` stores a bound method, a
    lambda, a nested function or a `functools.partial` made per instance: equal
    instances compare unequal, so every new one compiles again.

    ## What it does

    Flags a class whose instances reach a static position of `jax.jit` (found
    as for JAX101: a static parameter annotated with the class, `Cls(...)` or a
    name bound to one at a call, or `self` of a method jitted with argument 0
    or `"self"` static; across modules) when one of its fields is given a
    callable made anew for each instance:

    - in any of its methods (`__init__`, `__post_init__`, a helper they call):
      `self.f = self.g`, `self.f = other.method` (an object whose class is
      known: a local bound to `Cls(...)`, an annotated parameter),
      `self.f = lambda x: ...`, `def inner(...): ...` then `self.f = inner`,
      `self.f = functools.partial(...)` (or `partial(...)` imported from
      `functools`);
    - the same values through `object.__setattr__(self, "f", ...)`, as in the
      `__post_init__` of a frozen dataclass, also when a method of the class
      returns them (`self._pick()` returning `self._relu if ... else
      self._tanh`);
    - at a construction site inside a function: `Cfg(fn=lambda x: ...)`,
      `Cfg(fn=partial(...))`, `Cfg(fn=inner)`, or `Cfg(fn=obj.method)` with
      `obj` bound to `Helper(...)` in that function, keyword or positional,
      where the `Cfg` built reaches a static position (`step(x, Cfg(fn=...))`,
      or `cfg = Cfg(fn=...)` then `step(x, cfg)`). A `Cfg` built at module
      level is built once, and is not flagged;
    - at a construction site, a bound method whose object changes, after the
      first call, what the method reads (`Cfg(fn=SCALER.apply)`, then
      `SCALER.k = 3.0`): the method still compares equal, and the function
      compiled for the old state is reused;
    - at a construction site in a method, a bound method of its `self`
      (`Cfg("mean", self._helper)`): each object of the class is a new key.

    Only fields that `==` compares count (not a dataclass field with
    `compare=False`, nor one a hand-written `__eq__` leaves out).

    Reported on the assignment line (`self.f = ...`,
    `object.__setattr__(...)`), or on the argument at a construction site
    (`fn=lambda ...`); the message names the field, what it is given and the
    static use (`path:line`).

    ## Why is this bad?

    `jax.jit` finds a compiled function by the static value's `hash` and `==`,
    and a frozen dataclass hashes and compares all its fields. A bound method
    hashes and compares by the identity of the object it is bound to
    (`Cfg(2.0)._apply != Cfg(2.0)._apply`), and a lambda, nested function or
    `partial` is a new object, equal only to itself, each time the line runs.
    So two equal configurations built separately are different keys: each
    fresh copy (one per call, per run, per loop iteration) is traced and
    compiled again, and a value-hashed class never hits the cache.

    Checked on jax 0.10.2, CPU: the example traces 5 times for 5 equal
    `Cfg(2.0)`, where 1 is needed; `Act(fn=lambda v: v * 2)` built per run
    traces on every run.

    ## Example

    ```python
    import dataclasses
    from functools import partial
    from typing import Callable
    import jax

    traces = 0

    @dataclasses.dataclass(frozen=True)
    class Cfg:
        scale: float
        fn: Callable = None

        def __post_init__(self):
            object.__setattr__(self, "fn", self._apply)  # JAX105 is reported on this line

        def _apply(self, x):
            return x * self.scale

    @partial(jax.jit, static_argnums=1)
    def step(x, cfg):
        global traces
        traces += 1  # runs only when JAX traces (and compiles) again
        return cfg.fn(x)

    for _ in range(5):
        step(1.0, Cfg(2.0))
    print(traces)  # 5: one compilation per equal copy, where 1 is enough
    ```

    The same at a construction site:

    ```python
    import dataclasses
    from functools import partial
    from typing import Callable
    import jax

    traces = 0

    @dataclasses.dataclass(frozen=True)
    class Act:
        fn: Callable

    @partial(jax.jit, static_argnames="act")
    def step(x, act):
        global traces
        traces += 1
        return act.fn(x)

    def run(x):
        act = Act(fn=lambda v: v * 2)  # JAX105 is reported at `fn=lambda ...`
        return step(x, act=act)

    for _ in range(5):
        run(1.0)
    print(traces)  # 5
    ```

    ## Use instead

    Store a singleton: the function `Cfg._apply` (defined once by the class
    body, the same object in every instance) or a module-level function. Or
    store nothing and call the method: `cfg._apply(x)`.

    ```python
    import dataclasses
    from functools import partial
    from typing import Callable
    import jax

    traces = 0

    @dataclasses.dataclass(frozen=True)
    class Cfg:
        scale: float
        fn: Callable = None

        def __post_init__(self):
            object.__setattr__(self, "fn", Cfg._apply)  # a plain function, not bound

        def _apply(self, x):
            return x * self.scale

    @partial(jax.jit, static_argnums=1)
    def step(x, cfg):
        global traces
        traces += 1
        return cfg.fn(cfg, x)

    for _ in range(5):
        step(1.0, Cfg(2.0))
    print(traces)  # 1: equal copies share one compiled function
    ```

    ```python
    import dataclasses
    from functools import partial
    from typing import Callable
    import jax

    traces = 0

    def double(v):
        return v * 2

    @dataclasses.dataclass(frozen=True)
    class Act:
        fn: Callable

    @partial(jax.jit, static_argnames="act")
    def step(x, act):
        global traces
        traces += 1
        return act.fn(x)

    def run(x):
        act = Act(fn=double)
        return step(x, act=act)

    for _ in range(5):
        run(1.0)
    print(traces)  # 1
    ```

    A callable that must carry parameters belongs in fields of the static
    class itself (`scale: float`, read by a module-level function), not in a
    closure or a `partial`.

    ## Fix

    No automatic fix: what to store instead of the bound method or function made
    per instance (a module-level function, the name of a method) changes how the
    class is used.

    ## Options

    The default profile reports JAX105 when new, equal instances are built
    again and again: at the call of the jitted function or in a local of the
    function that makes it (for a construction-site finding, that construction
    itself; for `self._helper`, an object of `self`'s class), in a loop, in a
    function the project calls on every turn of a loop, or in a public
    function of a public module the project never calls itself; and a bound
    method whose object is changed after the first call. `strict` reports
    every per-instance callable stored in a static class, as the design
    standard asks: only singletons may hash by identity.
    It also reports, in a class hashed by identity, a bound method stored in an
    attribute the jitted function calls (`self.run_part = self.component.run`):
    the compiled code keeps the method it was traced with, and storing another
    one later leaves the key unchanged (the default profile reports that change
    as JAX101). No option is specific to JAX105.

    ## Known problems

    Not flagged, and fine:

    - module-level functions and classes (`self.f = relu`,
      `Cfg(fn=my_function)`), `Class.method` and `type(self).method` (plain
      functions), functions of modules (`np.sin`, `jnp.tanh`), builtins
      (`abs`): singletons, the same object every time;
    - `self.f = self.g` where `g` is a `staticmethod` (a plain function) or a
      `classmethod` (bound to the class, itself a singleton);
    - a lambda given as a class-level default (`fn: Callable = lambda x: x`),
      made once when the class is defined;
    - a method merely called (`self.offset = self.half(scale)`, `cfg._apply(x)`
      in the jitted function), and a bound method stored by a class that never
      reaches a static position;
    - a bound method of a long-lived object at a construction site
      (`Cfg(fn=HELPER.run)` with `HELPER` made once at module level and
      never changed, `Cfg(fn=self.run)` in a class built once,
      `Cfg(fn=helper.run)` with `helper` a parameter): equal copies are bound
      to the same object and compare equal (checked for `HELPER.run`: 1
      trace). `strict` reports them: only singletons may hash by identity.

    Not flagged, but compiling again just the same: the method of an object
    whose class jaxcheck does not know (`self.f = helper.run` with `helper` an
    unannotated parameter, `self.f = Helper().run`), and a parameter's method
    at a construction site when each call passes a new object
    (`run(x, Helper())` in a loop).

    If the instances are never rebuilt, put `# noqa: JAX105` on the reported
    line, or set `ignore = ["JAX105"]` or
    `per-file-ignores = { "tests/*" = ["JAX105"] }` in `[tool.jaxcheck]`.

    ## References

    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"),
      "Functions as fields": only functions that are singletons may hash by id;
      "the method `self.foo` has `self` bound to it, one must install
      `<class>.foo` as a field instead".
    - CPython bpo-1617161, "Make the hash and equality of methods not depending
      on the value of self" (Python 3.8): bound methods hash and compare by the
      identity of `__self__`. https://github.com/python/cpython/pull/7848
    - `jax.jit` docstring on `static_argnums`: static arguments should be
      hashable (`__hash__` and `__eq__`) and immutable; a new value that does
      not compare equal is a new compilation.
      https://docs.jax.dev/en/latest/_autosummary/jax.jit.html
    """

    code = "JAX105"
    name = "bound-method-field"
    summary = "a static class stores a bound method, lambda, nested function or `partial` made per instance"
    facts = ("identity-key",)

    def check(self, model: Model):
        yield from super().check(model)
        yield from self._construction_sites(model)

    def judge(self, path, cls, traits, uses, model):
        compared = compared_fields(cls.qualname, model)
        uses = [use for use in uses if model.hash_consulted(use)]
        if not uses:
            return
        built = built_repeatedly(model, cls.qualname, uses)
        # A class hashed by identity is one key however its fields change: a method
        # it stores and the jit calls is baked into the compiled code (standard only).
        baked = _read_by_uses(uses, cls.qualname, model) if traits.hashing == IDENTITY else None
        for method in model.symbols.classes[cls.qualname].methods:
            function = model.symbols.functions[method]
            if not function.is_instance_method:
                continue
            for write, write_path in model.symbols.writes.get(f.Ref(function.self_name, method), ()):
                what = f"`{cls.name}.{write.attribute}`"
                if baked is not None and write.attribute in baked.attributes:
                    made = model.values.stored_method(write.value, cls.qualname)
                    if made is not None:
                        yield self._baked(write_path, write.location, what, made, uses, model)
                    continue
                if compared is not None and write.attribute not in compared:
                    continue  # not part of `==`: it cannot split the cache
                made = model.values.per_instance_callable(write.value, cls.qualname)
                if made is not None:
                    yield self._finding(write_path, write.location, what, made, uses, built, model)

    def _baked(self, path, location, what, made, uses, model: Model):
        return self.finding(
            path,
            location,
            f"{what} is given {made}, and {uses_text(uses, model)}: the compiled code keeps the callable it was "
            "traced with, even when another is stored there later",
            "Call the method where it is needed (`self.component.run(x)`) instead of storing it, or pass what "
            "changes as a regular argument",
            related_uses(uses, model),
            evidence=False,
        )

    def _construction_sites(self, model: Model):
        """`Cfg(fn=obj.method)` where the object built reaches a static position."""
        symbols = model.symbols
        seen = set()
        by_path: dict[str, list] = {}
        for use in model.static_uses:
            if use.via == CALL_SITE and use.value is not None and use.class_qualname:
                by_path.setdefault(use.path, []).append(use)
        for path, module in symbols.modules.items():
            if path not in by_path:
                continue
            # An argument keeps its own arguments only as a call recorded on its own.
            recorded = {call.key: call for _, call in module.calls}
            for use in by_path[path]:
                if model.classes.traits(use.class_qualname) is None:
                    continue
                value = use.value
                if use.enclosing == "" and value.kind == f.CALL or (
                    value.kind == f.NAME and value.ref is not None and not symbols.canonical(value.ref).is_local
                ):
                    continue  # built once, when the module is imported: one trace, no harm
                built = [value] if value.kind == f.CALL else [
                    binding.value for binding in symbols.bindings.get(symbols.canonical(value.ref), ())
                ]
                compared = compared_fields(use.class_qualname, model)
                for call in built:
                    call = recorded.get(call.key, call)
                    if symbols.constructed_class(call) != use.class_qualname:
                        continue
                    arguments = [*((f"argument {n}", arg) for n, arg in enumerate(call.args, 1)), *call.keywords]
                    for key, argument in arguments:
                        if compared is not None and not key.startswith("argument ") and key not in compared:
                            continue
                        if argument.location in seen or key == "**":
                            continue
                        name = use.class_qualname.rpartition(".")[2]
                        what = f"`{name}.{key}`" if not key.startswith("argument ") else f"`{name}(...)` ({key})"
                        finding = self._construction_site(model, path, call, argument, what, use)
                        if finding is not None:
                            seen.add(argument.location)
                            yield from about_uses([finding], [use])

    def _construction_site(self, model: Model, path: str, call: f.Value, argument: f.Value, what: str, use):
        """The finding for one argument of a construction, or None. A bound method
        is stale once its object changes what the method reads; one of the
        caller's `self` is a new key for each object the caller's class builds."""
        if argument.kind == f.NAME and argument.ref is not None:
            changes = bound_object_changes(model, argument.ref, use)
            if changes:
                return self._stale(path, argument, what, changes[0].change, use, model)
        made = model.values.per_instance_callable(argument, "")
        if made is not None:
            repeated = runs_repeatedly(model, path, call.location)
            built_text = f"built in code that runs again and again ({place_named(path, call.location.line, call.location.column)})" if repeated else ""
            return self._finding(path, argument.location, what, made, [use], built_text, model)
        owner = model.values.bound_to_self(argument)
        if owner is None:
            return None
        made = f"the bound method `{argument.ref.dotted}`"
        built_text = instances_built_repeatedly(model, owner)
        if built_text:
            built_text = f"bound to a new `{owner.rpartition('.')[2]}` each time, and those are {built_text}"
        return self._finding(path, argument.location, what, made, [use], built_text, model)

    def _stale(self, path, argument: f.Value, what: str, change, use, model: Model):
        owner = argument.ref.parent
        return self.finding(
            path,
            argument.location,
            f"{what} is given the bound method `{argument.ref.dotted}`, which compares by the identity of "
            f"`{owner.dotted}`, and {uses_text([use], model)}: after {change.shown} the next call silently reuses "
            "the function compiled for the old state",
            "Pass what changes as a regular argument, or store a module-level function and keep its parameters in "
            "fields of the static class",
            (related_change(change), *related_uses([use], model)),
        )

    def _finding(self, path, location, what, made, uses, built: str, model: Model):
        consequence = (
            f"every new instance misses the cache and recompiles, and it is {built}"
            if built
            else "every new instance would miss the cache and recompile (nothing here builds more than one)"
        )
        return self.finding(
            path,
            location,
            f"{what} is given {made}, made anew for each instance, but "
            f"{uses_text(uses, model)}: it hashes by identity, so {consequence}",
            "Store a module-level function or `Class.method` (singletons), or call the method instead of storing it",
            related_uses(uses, model),
            evidence=bool(built),
        )
